package queue

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// workQueue makes a queue in a new state folder that holds what each read
// reads: a done job, a skipped one, their sessions' offsets, the day's
// spend, and pending jobs (p, then fill jobs: enough that no table's
// root is the page that holds its rows). The queue is closed, its WAL
// checkpointed. It returns the folder and the transcripts of the jobs.
func workQueue(t *testing.T) (state string, f files) {
	t.Helper()
	ctx := context.Background()
	state = t.TempDir()
	f = files{pending: filepath.Join(state, "pending.jsonl"), done: filepath.Join(state, "done.jsonl")}
	for _, p := range []string{f.pending, f.done} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	q, err := Open(ctx, state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for _, r := range []struct {
		session string
		result  Result
	}{
		{"skipped", Result{EndOff: 50, Skipped: "too little work"}},
		{"done", Result{EndOff: 200, Facts: 2, TokensIn: 300}},
	} {
		if _, err := q.Enqueue(ctx, Job{Session: r.session, Transcript: f.done, Event: "session-end"}); err != nil {
			t.Fatal(err)
		}
		j, _, err := q.Lease(ctx, DefaultLease)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Complete(ctx, j, r.result); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.AddSpent(ctx, today(), 300); err != nil {
		t.Fatal(err)
	}
	for i := range 61 {
		session := fmt.Sprintf("fill-%d", i)
		if i == 0 {
			session = "p"
		}
		if _, err := q.Enqueue(ctx, Job{Session: session, Transcript: f.pending, Event: "session-end"}); err != nil {
			t.Fatal(err)
		}
	}
	return state, f
}

func today() string { return time.Now().UTC().Format(time.DateOnly) }

// A read is one of the queue's reads, its answer in words.
type read struct {
	name  string
	table string // what it reads: damaged to make it meet the damage
	read  func(ctx context.Context, q *Queue, f files) (string, error)
}

// files are the transcripts of a [workQueue]'s jobs.
type files struct{ pending, done string }

// reads are every read of a queue: what `mnemo queue`, doctor, stats,
// the review page and the worker (a session's offset, the day's spend)
// ask.
var reads = []read{
	{"List", "jobs", func(ctx context.Context, q *Queue, _ files) (string, error) {
		jobs, err := q.List(ctx)
		return sessionsOf(jobs), err
	}},
	{"List pending", "jobs_state", func(ctx context.Context, q *Queue, _ files) (string, error) {
		jobs, err := q.List(ctx, "pending")
		return sessionsOf(jobs), err
	}},
	{"Get", "jobs", func(ctx context.Context, q *Queue, _ files) (string, error) {
		j, err := q.Get(ctx, 3)
		if errors.Is(err, ErrNotFound) {
			return "not found", nil
		}
		return j.Session + " " + j.State, err
	}},
	{"Counts", "jobs_state", func(ctx context.Context, q *Queue, _ files) (string, error) {
		n, err := q.Counts(ctx)
		return fmt.Sprint(n), err
	}},
	{"Totals", "jobs_state", func(ctx context.Context, q *Queue, _ files) (string, error) {
		t, err := q.Totals(ctx, time.Time{})
		return fmt.Sprintf("%+v", t), err
	}},
	{"LastSkip", "jobs_state", func(ctx context.Context, q *Queue, _ files) (string, error) {
		return q.LastSkip(ctx)
	}},
	{"Offset", "sessions", func(ctx context.Context, q *Queue, f files) (string, error) {
		done, err := q.Offset(ctx, "done", f.done)
		if err != nil {
			return "", err
		}
		p, err := q.Offset(ctx, "p", f.pending)
		return fmt.Sprint(done, p), err
	}},
	{"Spent", "spend", func(ctx context.Context, q *Queue, _ files) (string, error) {
		n, err := q.Spent(ctx, today())
		return fmt.Sprint(n), err
	}},
	{"Audit", "sessions", func(ctx context.Context, q *Queue, _ files) (string, error) {
		problems, err := q.Audit(ctx, true)
		return strings.Join(problems, "; "), err
	}},
}

// sessionsOf says how many jobs there are, and lists their sessions in
// order but for the fill jobs, which are only counted.
func sessionsOf(jobs []Job) string {
	out := []string{fmt.Sprintf("%d jobs:", len(jobs))}
	fill := 0
	for _, j := range jobs {
		if strings.HasPrefix(j.Session, "fill-") {
			fill++
			continue
		}
		out = append(out, j.Session)
	}
	return strings.Join(append(out, fmt.Sprintf("and %d fill", fill)), " ")
}

// touch writes to the queue through q, in a table other than damaged, so
// that the handles already open read their pages from the file again
// (SQLite keeps them while the WAL is unchanged).
func touch(ctx context.Context, q *Queue, damaged string) error {
	if damaged == "spend" {
		_, err := q.Enqueue(ctx, Job{Session: "touch", Transcript: "/t/touch.jsonl", Event: "session-end"})
		return err
	}
	return q.AddSpent(ctx, "2026-12-01", 1)
}

// unaccounted opens the queue in stateDir (which repairs a damage left)
// and returns those of jobs (transcripts by session) that are neither in
// it nor named to ingest again by the record of its repair; none when the
// damaged file could not be read at all, which the record says to fix
// with ingest --all. It fails the test when the queue was set aside more
// than once, or not exactly once when once is set.
func unaccounted(t *testing.T, stateDir string, once bool, jobs map[string]string) []string {
	t.Helper()
	ctx := context.Background()
	q, err := Open(ctx, stateDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	ds, err := Damages(stateDir)
	if err != nil || len(ds) > 1 || once && len(ds) != 1 {
		t.Fatalf("Damages = %+v, %v; want one (once %v) or none", ds, err, once)
	}
	have, err := q.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for session, transcript := range jobs {
		switch {
		case slices.ContainsFunc(have, func(j Job) bool { return j.Session == session }):
		case len(ds) == 1 && slices.Contains(ds[0].Transcripts, transcript):
		case len(ds) == 1 && !ds[0].Exact && len(ds[0].Transcripts) == 0: // ingest --all
		default:
			out = append(out, session)
		}
	}
	slices.Sort(out)
	return out
}

// TestReadHealsDamage: a table of queue.db is damaged under a handle
// already open (the worker's, the review page's); another handle writes
// another table, so the first reads its pages from the file again. The
// read that meets the damage repairs the file, as a write does, and is
// made again in the new one: it answers what a handle opened after the
// repair answers, and the pending job is kept (or, where the damaged
// jobs cannot be read, its transcript named to ingest again).
func TestReadHealsDamage(t *testing.T) {
	for _, tt := range reads {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state, f := workQueue(t)
			q, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			other, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := overwriteRoot(tt.table)(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			if err := touch(ctx, other, tt.table); err != nil {
				t.Fatalf("a write to another table: %v", err)
			}
			got, err := tt.read(ctx, q, f)
			if err != nil {
				t.Fatalf("%s with %s damaged: %v, want it repaired and read", tt.name, tt.table, err)
			}
			if lost := unaccounted(t, state, true, map[string]string{"p": f.pending}); len(lost) > 0 {
				t.Errorf("%v, pending in the damaged file, neither kept nor named to ingest again", lost)
			}
			fresh, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			if want, err := tt.read(ctx, fresh, f); err != nil || got != want {
				t.Errorf("%s = %q; a handle opened after the repair reads %q, %v", tt.name, got, want, err)
			}
		})
	}
}

// TestStaleHandleReads: a handle opened before another process repaired
// queue.db (the worker's, idle between jobs) reads the file now at the
// path, not the damaged one set aside: a session's offset it read from
// the old file would have its next job read a range again, and a job
// enqueued since would not be listed.
func TestStaleHandleReads(t *testing.T) {
	for _, tt := range reads {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state, f := workQueue(t)
			stale, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer stale.Close()
			if _, err := tt.read(ctx, stale, f); err != nil {
				t.Fatal(err)
			}
			// Another process finds the file damaged, repairs it, and
			// works in the new one.
			if err := overwriteRoot("spend")(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			other, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if _, err := other.Enqueue(ctx, Job{Session: "late", Transcript: f.done, Event: "session-end"}); err != nil {
				t.Fatal(err)
			}
			if err := other.AddSpent(ctx, today(), 7); err != nil {
				t.Fatal(err)
			}
			j, _, err := other.Lease(ctx, DefaultLease) // p
			if err != nil {
				t.Fatal(err)
			}
			if err := other.Complete(ctx, j, Result{EndOff: 400, Skipped: "no work"}); err != nil {
				t.Fatal(err)
			}
			got, err := tt.read(ctx, stale, f)
			if err != nil {
				t.Fatalf("%s by the handle opened before the repair: %v", tt.name, err)
			}
			if lost := unaccounted(t, state, true, map[string]string{"p": f.pending}); len(lost) > 0 {
				t.Errorf("%v, pending in the damaged file, neither kept nor named to ingest again", lost)
			}
			if want, err := tt.read(ctx, other, f); err != nil || got != want {
				t.Errorf("%s by the handle opened before the repair = %q; the file at the path holds %q, %v", tt.name, got, want, err)
			}
		})
	}
}
