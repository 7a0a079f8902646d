package queue

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// damagesUnder are the ways queue.db is damaged under handles that have it
// open: [TestOpenDamaged]'s, made to the file while they hold it.
var damagesUnder = []struct {
	name   string
	damage func(string) error
}{
	{"header garbage", overwrite(0, bytes.Repeat([]byte("garbage!"), 13))},
	{"truncated to nothing", func(p string) error { return os.Truncate(p, 0) }},
	{"truncated to one page", func(p string) error { return os.Truncate(p, 4096) }},
	{"a page overwritten", overwrite(4096, bytes.Repeat([]byte{0xff}, 4096))},
	{"spend table overwritten", overwriteRoot("spend")},
	{"sessions table overwritten", overwriteRoot("sessions")},
}

// work is what a handle open through a repair does, a round at a time:
// it enqueues a job (a session of its own, whose transcript it makes in
// the state folder, so that a repair that cannot read the jobs names it
// to ingest again), and reads everything a reader reads. It returns the
// sessions enqueued and the first error.
func work(ctx context.Context, q *Queue, stateDir, name string, rounds int, f files) ([]string, error) {
	var sent []string
	for i := range rounds {
		session := fmt.Sprintf("%s-%d", name, i)
		transcript := filepath.Join(stateDir, session+".jsonl")
		if err := os.WriteFile(transcript, []byte("{}\n"), 0o644); err != nil {
			return sent, err
		}
		if _, err := q.Enqueue(ctx, Job{Session: session, Transcript: transcript, Event: "session-end"}); err != nil {
			return sent, fmt.Errorf("enqueue %s: %w", session, err)
		}
		sent = append(sent, session)
		for _, r := range reads {
			if _, err := r.read(ctx, q, f); err != nil {
				return sent, fmt.Errorf("%s: %w", r.name, err)
			}
		}
	}
	return sent, nil
}

// checkAccounted checks that each job of sessions (their transcripts in
// stateDir), and p, pending in the damaged file, is in the queue or
// named to ingest again ([unaccounted]).
func checkAccounted(t *testing.T, stateDir string, f files, sessions []string) {
	t.Helper()
	jobs := map[string]string{"p": f.pending}
	for _, s := range sessions {
		jobs[s] = filepath.Join(stateDir, s+".jsonl")
	}
	if lost := unaccounted(t, stateDir, false, jobs); len(lost) > 0 {
		t.Errorf("%d of %d jobs neither kept nor named to ingest again: %v", len(lost), len(jobs), lost)
	}
}

// TestReadRepairRace: queue.db is damaged, in each way, under handles
// that have it open (the worker, an ingest, the review page): each goes
// on enqueueing and reading everything there is to read, while hooks
// open the queue and enqueue. No read and no enqueue fails; the queue
// is set aside once at most (a damaged page a writer rewrote before any
// reader met it is no damage); every job enqueued, and the one pending
// before, is kept or named to ingest again (all of them, when the file
// was truncated: ingest --all); and once all are done, each handle reads
// what the file at the path holds, not the damaged one set aside.
func TestReadRepairRace(t *testing.T) {
	const held, hooks, rounds = 3, 4, 4
	for _, d := range damagesUnder {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			state, f := workQueue(t)
			var qs []*Queue
			for range held {
				q, err := Open(ctx, state, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				qs = append(qs, q)
			}
			if err := d.damage(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				sent []string
			)
			run := func(name string, do func() ([]string, error)) {
				s, err := do()
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				mu.Lock()
				sent = append(sent, s...)
				mu.Unlock()
			}
			for i, q := range qs {
				name := fmt.Sprintf("held%d", i)
				wg.Go(func() {
					run(name, func() ([]string, error) { return work(ctx, q, state, name, rounds, f) })
				})
			}
			for i := range hooks {
				name := fmt.Sprintf("hook%d", i)
				wg.Go(func() {
					run(name, func() ([]string, error) {
						q, err := Open(ctx, state, nil)
						if err != nil {
							return nil, err
						}
						defer q.Close()
						return work(ctx, q, state, name, 1, f)
					})
				})
			}
			wg.Wait()
			checkAccounted(t, state, f, sent)
			fresh, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			for _, r := range reads {
				want, err := r.read(ctx, fresh, f)
				if err != nil {
					t.Fatal(err)
				}
				for i, q := range qs {
					if got, err := r.read(ctx, q, f); err != nil || got != want {
						t.Errorf("%s by held handle %d = %q, %v; the file at the path holds %q", r.name, i, got, err, want)
					}
				}
			}
		})
	}
}

// heldEnv names, for the test binary run as a child, the state folder of
// the queue to hold, its transcripts and the name of the child
// ([TestHeldChild]).
const heldEnv = "MNEMO_TEST_QUEUE_HELD"

// TestHeldChild is not a test: it is what each child process of
// [TestReadRepairRaceProcesses] runs. It opens the queue, says so, waits
// for its stdin to close (the queue is damaged then), works through the
// repair ([work]) and prints the sessions it enqueued, or the error.
func TestHeldChild(t *testing.T) {
	spec := os.Getenv(heldEnv)
	if spec == "" {
		t.Skip("run by TestReadRepairRaceProcesses")
	}
	parts := strings.Split(spec, string(os.PathListSeparator))
	state, f, name := parts[0], files{pending: parts[1], done: parts[2]}, parts[3]
	ctx := context.Background()
	q, err := Open(ctx, state, nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	defer q.Close()
	fmt.Println("ready")
	io.Copy(io.Discard, os.Stdin)
	sent, err := work(ctx, q, state, name, 4, f)
	fmt.Println("sent:", strings.Join(sent, " "))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
}

// TestReadRepairRaceProcesses is [TestReadRepairRace] with processes, each
// holding the queue open when it is damaged: SQLite's locks between
// processes are not those between the connections of one.
func TestReadRepairRaceProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const procs = 6
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range damagesUnder {
		t.Run(d.name, func(t *testing.T) {
			state, f := workQueue(t)
			cmds := make([]*exec.Cmd, procs)
			outs := make([]*bufio.Reader, procs)
			logs := make([]strings.Builder, procs)
			stdins := make([]io.WriteCloser, procs)
			for i := range procs {
				c := exec.Command(exe, "-test.run=^TestHeldChild$")
				c.Env = append(os.Environ(), heldEnv+"="+strings.Join([]string{state, f.pending, f.done, fmt.Sprintf("proc%d", i)}, string(os.PathListSeparator)))
				c.Stderr = &logs[i]
				out, err := c.StdoutPipe()
				if err != nil {
					t.Fatal(err)
				}
				if stdins[i], err = c.StdinPipe(); err != nil {
					t.Fatal(err)
				}
				if err := c.Start(); err != nil {
					t.Fatal(err)
				}
				cmds[i], outs[i] = c, bufio.NewReader(out)
			}
			for i := range procs {
				if line, err := outs[i].ReadString('\n'); line != "ready\n" {
					t.Fatalf("process %d: %q, %v; want ready (log: %s)", i, line, err, &logs[i])
				}
			}
			if err := d.damage(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			for _, in := range stdins {
				in.Close()
			}
			var sent []string
			for i, c := range cmds {
				rest, _ := io.ReadAll(outs[i])
				if err := c.Wait(); err != nil {
					t.Errorf("process %d: %v, printed %q (log: %s)", i, err, rest, &logs[i])
				}
				for line := range strings.Lines(string(rest)) {
					if s, ok := strings.CutPrefix(strings.TrimSpace(line), "sent:"); ok {
						sent = append(sent, strings.Fields(s)...)
					}
				}
			}
			checkAccounted(t, state, f, sent)
		})
	}
}
