package worker

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/transcript"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// rememberer is a test extractor: each prompt that says "remember" is a fact.
type rememberer struct {
	delay time.Duration // how long an extraction takes
	seen  *[]string     // the prompts it was shown
}

func (rememberer) Name() string { return "test" }

func (r rememberer) Extract(ctx context.Context, d *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	select {
	case <-time.After(r.delay):
	case <-ctx.Done():
		return nil, Usage{}, ctx.Err()
	}
	var out []consolidate.Fact
	for _, t := range d.Turns {
		for _, it := range t.Items {
			if it.Kind != transcript.ItemUser {
				continue
			}
			if r.seen != nil {
				*r.seen = append(*r.seen, it.Text)
			}
			if fact, ok := strings.CutPrefix(it.Text, "remember: "); ok {
				out = append(out, consolidate.Fact{Description: fact, Body: fact + ".", Type: memory.TypeProject, Confidence: 0.9})
			}
		}
	}
	return out, Usage{InputTokens: d.Tokens(), OutputTokens: 10}, nil
}

// project is a vault, a state folder and a queue.
type project struct {
	root, state, user string
	q                 *queue.Queue
}

func newProject(t testing.TB) *project {
	t.Helper()
	p := &project{root: t.TempDir(), state: t.TempDir(), user: t.TempDir()}
	vault.Create(filepath.Join(p.root, ".memory"))
	vault.Create(p.user)
	q, err := queue.Open(context.Background(), p.state, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	p.q = q
	return p
}

func (p *project) pipeline(x Extractor) *Pipeline {
	return &Pipeline{
		Queue: p.q, Extractor: x, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: time.Now,
		Consolidator: func(ctx context.Context, j queue.Job) (*consolidate.Consolidator, func(), error) {
			pv, _ := vault.Open(filepath.Join(p.root, ".memory"), filepath.Join(p.state, "vault.lock"))
			uv, _ := vault.Open(p.user, filepath.Join(p.state, "user.lock"))
			db, err := index.Open(ctx, filepath.Join(p.state, index.FileName), nil)
			if err != nil {
				return nil, nil, err
			}
			in, _ := consolidate.OpenInbox(p.state)
			return &consolidate.Consolidator{Project: pv, User: uv, Inbox: in, Index: db, Root: p.root, Cwd: p.root, Now: time.Now()},
				func() { db.Close() }, nil
		},
	}
}

func (p *project) worker(x Extractor, lease time.Duration) *Worker {
	return &Worker{StateDir: p.state, Queue: p.q, Process: p.pipeline(x).Process,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: time.Now, Lease: lease, Poll: 20 * time.Millisecond}
}

// line is a user prompt as Claude Code writes it.
func line(session, prompt string, n int) string {
	return fmt.Sprintf(`{"type":"user","uuid":"u%d","sessionId":%q,"timestamp":"2026-11-30T10:00:%02dZ","cwd":"/x","message":{"role":"user","content":%q}}`+"\n",
		n, session, n%60, prompt)
}

func appendLines(t *testing.T, path string, lines ...string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		f.WriteString(l)
	}
}

func TestIncrementalJobs(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s1.jsonl")
	appendLines(t, tr, line("s1", "remember: deploys go through make deploy", 1), line("s1", "thanks", 2))
	p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: tr, Event: "pre-compact"})
	var seen []string
	if err := p.worker(rememberer{seen: &seen}, time.Minute).Run(ctx); err != nil {
		t.Fatal(err)
	}
	// A truncated last line (still being written) is left for the next job.
	appendLines(t, tr, line("s1", "remember: the staging database is read-only", 3), `{"type":"user","uuid":"u4","mess`)
	p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: tr, Event: "session-end"})
	if err := p.worker(rememberer{seen: &seen}, time.Minute).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, " | "); got != "remember: deploys go through make deploy | thanks | remember: the staging database is read-only" {
		t.Errorf("the extractor saw %q: each turn once, the partial line never", got)
	}
	jobs, _ := p.q.List(ctx, "done")
	if len(jobs) != 2 || jobs[0].StartOff != jobs[1].EndOff || jobs[0].Facts != 1 {
		t.Errorf("jobs = %+v, want two contiguous done jobs", jobs)
	}
	entries, _ := mustVault(t, p).List()
	if len(entries) != 2 {
		t.Errorf("vault holds %d memories, want 2", len(entries))
	}
}

func mustVault(t *testing.T, p *project) *vault.Vault {
	v, err := vault.Open(filepath.Join(p.root, ".memory"), filepath.Join(p.state, "vault.lock"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOneWorkerPerState(t *testing.T) {
	p := newProject(t)
	unlock := lockWorker(t, p.state)
	defer unlock()
	if err := p.worker(rememberer{}, time.Minute).Run(context.Background()); err != ErrRunning {
		t.Errorf("Run with the lock held = %v, want ErrRunning", err)
	}
}

func lockWorker(t *testing.T, state string) func() {
	cmd := exec.Command("flock", filepath.Join(state, queue.WorkerLockFile), "sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip("no flock command:", err)
	}
	for range 100 {
		if queue.WorkerRunning(state) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	return func() { cmd.Process.Kill(); cmd.Wait() }
}

// TestMain lets the test binary be a worker process for the crash test.
func TestMain(m *testing.M) {
	if spec := os.Getenv("MNEMO_TEST_WORKER"); spec != "" {
		var root, state, user string
		fmt.Sscan(spec, &root, &state, &user)
		q, err := queue.Open(context.Background(), state, nil)
		if err != nil {
			os.Exit(1)
		}
		p := &project{root: root, state: state, user: user, q: q}
		w := p.worker(rememberer{delay: time.Minute}, time.Second)
		w.Run(context.Background())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKilledWorker kills a worker with SIGKILL in the middle of a job; the
// next worker takes the job when its lease runs out and completes it once.
func TestKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	p := newProject(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr, line("s", "remember: the cache is flushed nightly", 1))
	p.q.Enqueue(ctx, queue.Job{Session: "s", Transcript: tr, Event: "session-end"})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MNEMO_TEST_WORKER="+p.root+" "+p.state+" "+p.user)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ { // wait until it holds the job
		if jobs, _ := p.q.List(ctx, "leased"); len(jobs) == 1 {
			break
		}
		if i == 500 {
			t.Fatal("the worker never leased the job")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	time.Sleep(1100 * time.Millisecond) // its one-second lease runs out
	if err := p.worker(rememberer{}, time.Minute).Run(ctx); err != nil {
		t.Fatal(err)
	}
	done, _ := p.q.List(ctx, "done")
	all, _ := p.q.List(ctx)
	if len(done) != 1 || len(all) != 1 || done[0].Attempts != 2 {
		t.Errorf("jobs = %+v, want the one job done on its second attempt", all)
	}
	entries, _ := mustVault(t, p).List()
	if len(entries) != 1 {
		t.Errorf("vault holds %d memories, want the fact once", len(entries))
	}
}

// skipper skips every session, as the cost guard skips a short one.
type skipper struct{}

func (skipper) Name() string { return "skipper" }
func (skipper) Extract(context.Context, *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	return nil, Usage{}, fmt.Errorf("%w: too few user turns", ErrSkip)
}

// TestSkipKeepsOffset: a skipped job is done, but the session's next job
// reads the skipped part again.
func TestSkipKeepsOffset(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr, line("s", "hello", 1))
	p.q.Enqueue(ctx, queue.Job{Session: "s", Transcript: tr, Event: "pre-compact"})
	if err := p.worker(skipper{}, time.Minute).Run(ctx); err != nil {
		t.Fatal(err)
	}
	if off, _ := p.q.Offset(ctx, "s", tr); off != 0 {
		t.Errorf("offset after a skipped job = %d, want 0", off)
	}
	if done, _ := p.q.List(ctx, "done"); len(done) != 1 {
		t.Errorf("the skipped job is not done: %+v", done)
	}
}

// TestFactsPerJobBounded: a session that yields more candidates than a
// person could review (a transcript of thousands of prompts, each stating
// something) consolidates the most confident [maxFactsPerJob] of them and
// says how many it left, rather than drafting them all (200,000 drafts,
// and a job that ran past its deadline after 17, were seen).
func TestFactsPerJobBounded(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	tr := filepath.Join(t.TempDir(), "s1.jsonl")
	var lines []string
	for i := range maxFactsPerJob + 30 {
		lines = append(lines, line("s1", fmt.Sprintf("remember: service hk%d listens on port %d", i, 9000+i), i))
	}
	appendLines(t, tr, lines...)
	logged := runLogged(t, p, tr)
	jobs, _ := p.q.List(ctx, "done")
	if len(jobs) != 1 || jobs[0].Facts != maxFactsPerJob {
		t.Fatalf("jobs = %+v, want one done with %d facts", jobs, maxFactsPerJob)
	}
	entries, _ := mustVault(t, p).List()
	in, _ := consolidate.OpenInbox(p.state)
	drafts, _ := in.List()
	if n := len(entries) + len(drafts); n != maxFactsPerJob {
		t.Errorf("%d memories and drafts written, want %d", n, maxFactsPerJob)
	}
	if want := fmt.Sprintf("kept=%d of=%d", maxFactsPerJob, maxFactsPerJob+30); !strings.Contains(logged, want) {
		t.Errorf("the log does not say %q:\n%s", want, logged)
	}
}

// TestOversizedLineLogged: a transcript line too long to read (a tool's
// output of more than transcript.DefaultMaxLineBytes written inline) is
// stepped over and logged with its file, line number and offset, and the
// facts of the lines around it are kept.
func TestOversizedLineLogged(t *testing.T) {
	huge := line("s1", strings.Repeat("x", transcript.DefaultMaxLineBytes), 99)
	a, b := line("s1", "remember: deploys go through make deploy", 1), line("s1", "remember: the staging database is read-only", 2)
	tests := []struct {
		name  string
		lines []string
		at    int   // the huge line's number
		off   int64 // and its offset
	}{
		{"between", []string{a, huge, b}, 2, int64(len(a))},
		{"first", []string{huge, a, b}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			ctx := context.Background()
			tr := filepath.Join(t.TempDir(), "s1.jsonl")
			appendLines(t, tr, tt.lines...)
			logged := runLogged(t, p, tr)
			jobs, _ := p.q.List(ctx, "done")
			if len(jobs) != 1 || jobs[0].Facts != 2 {
				t.Errorf("jobs = %+v, want one done with 2 facts", jobs)
			}
			want := fmt.Sprintf("file=%s line=%d offset=%d bytes=%d", tr, tt.at, tt.off, len(huge)-1)
			if !strings.Contains(logged, want) {
				t.Errorf("the log does not say %q:\n%s", want, logged)
			}
		})
	}
}

// runLogged runs the worker on one job, session s1's transcript tr, with
// the rememberer, and returns what the pipeline logged.
func runLogged(t *testing.T, p *project, tr string) string {
	t.Helper()
	ctx := context.Background()
	p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: tr, Event: "session-end"})
	var logged strings.Builder
	w := p.worker(rememberer{}, time.Minute)
	w.Process = func(ctx context.Context, j queue.Job) (queue.Result, error) {
		pl := p.pipeline(rememberer{})
		pl.Log = slog.New(slog.NewTextHandler(&logged, nil))
		return pl.Process(ctx, j)
	}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return logged.String()
}
