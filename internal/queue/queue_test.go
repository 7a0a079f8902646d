package queue

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"time"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func mustOpen(t *testing.T) (*Queue, *clock) {
	t.Helper()
	q, err := Open(context.Background(), t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	c := &clock{time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)}
	q.Now = c.now
	return q, c
}

func TestEnqueueCoalesces(t *testing.T) {
	q, _ := mustOpen(t)
	ctx := context.Background()
	a, err := q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "pre-compact"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	if a != b {
		t.Errorf("a second event of a waiting session made job %d, want %d updated", b, a)
	}
	c, _ := q.Enqueue(ctx, Job{Session: "s2", Transcript: "/t/s2.jsonl", Event: "session-end"})
	if c == a {
		t.Errorf("another session shares job %d", c)
	}
	jobs, _ := q.List(ctx)
	if len(jobs) != 2 || jobs[1].Event != "session-end" {
		t.Errorf("List = %+v, want 2 jobs, s1's event session-end", jobs)
	}
	if _, err := q.Enqueue(ctx, Job{Session: "s3"}); err == nil {
		t.Errorf("Enqueue without a transcript = nil error")
	}
	// Once leased, a new event for the session is a new job.
	j, ok, _ := q.Lease(ctx, time.Minute)
	if !ok || j.ID != a {
		t.Fatalf("Lease = %v %v, want job %d", j, ok, a)
	}
	d, _ := q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	if d == a {
		t.Errorf("an event for a session being processed joined the leased job")
	}
}

func TestLeaseCompleteOffsets(t *testing.T) {
	q, _ := mustOpen(t)
	ctx := context.Background()
	q.Enqueue(ctx, Job{Session: "s", Transcript: "/t", Event: "pre-compact"})
	j, ok, err := q.Lease(ctx, time.Minute)
	if err != nil || !ok {
		t.Fatalf("Lease = %v, %v", ok, err)
	}
	if _, ok, _ := q.Lease(ctx, time.Minute); ok {
		t.Errorf("a leased job was leased twice")
	}
	if err := q.Complete(ctx, j, Result{StartOff: 0, EndOff: 1200, TokensIn: 50, Facts: 2}); err != nil {
		t.Fatal(err)
	}
	if off, _ := q.Offset(ctx, "s", "/t"); off != 1200 {
		t.Errorf("Offset = %d, want 1200", off)
	}
	if err := q.Complete(ctx, j, Result{EndOff: 5}); err == nil {
		t.Errorf("completing a job twice = nil error")
	}
	if off, _ := q.Offset(ctx, "s", "/t"); off != 1200 {
		t.Errorf("Offset after a second Complete = %d, want 1200", off)
	}
	counts, _ := q.Counts(ctx)
	if counts["done"] != 1 {
		t.Errorf("Counts = %v", counts)
	}
	// The offset belongs to /t: the session's job on another file starts at 0,
	// and once done, that file's offset is the one kept.
	if off, _ := q.Offset(ctx, "s", "/other"); off != 0 {
		t.Errorf("Offset for another transcript = %d, want 0", off)
	}
	q.Enqueue(ctx, Job{Session: "s", Transcript: "/other", Event: "session-end"})
	j2, _, _ := q.Lease(ctx, time.Minute)
	if err := q.Complete(ctx, j2, Result{EndOff: 300}); err != nil {
		t.Fatal(err)
	}
	if off, _ := q.Offset(ctx, "s", "/other"); off != 300 {
		t.Errorf("Offset in the new transcript = %d, want 300 (not the old file's 1200)", off)
	}
}

func TestFailRetryDead(t *testing.T) {
	q, c := mustOpen(t)
	ctx := context.Background()
	id, _ := q.Enqueue(ctx, Job{Session: "s", Transcript: "/t", Event: "session-end"})
	for attempt := 1; attempt <= 3; attempt++ {
		j, ok, _ := q.Lease(ctx, time.Minute)
		if !ok {
			t.Fatalf("attempt %d: nothing to lease", attempt)
		}
		if j.Attempts != attempt {
			t.Errorf("attempt %d: Attempts = %d", attempt, j.Attempts)
		}
		q.Fail(ctx, j, errors.New("boom"), 3)
		if _, ok, _ := q.Lease(ctx, time.Minute); ok {
			t.Errorf("attempt %d: a failed job was leased before its backoff", attempt)
		}
		c.advance(2 * time.Hour)
	}
	jobs, _ := q.List(ctx, "dead")
	if len(jobs) != 1 || jobs[0].LastError != "boom" {
		t.Fatalf("dead jobs = %+v", jobs)
	}
	if err := q.Retry(ctx, id); err != nil {
		t.Fatal(err)
	}
	if j, ok, _ := q.Lease(ctx, time.Minute); !ok || j.Attempts != 1 {
		t.Errorf("after Retry, Lease = %+v %v", j, ok)
	}
	if err := q.Drop(ctx, id); err == nil {
		t.Errorf("dropping a leased job = nil error")
	}
	if err := q.Retry(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("Retry(999) = %v, want ErrNotFound", err)
	}
}

func TestExpiredLease(t *testing.T) {
	q, c := mustOpen(t)
	ctx := context.Background()
	q.Enqueue(ctx, Job{Session: "s", Transcript: "/t", Event: "session-end"})
	for i := range DefaultMaxAttempts {
		if _, ok, _ := q.Lease(ctx, time.Minute); !ok {
			t.Fatalf("lease %d: the expired job was not leased again", i+1)
		}
		c.advance(2 * time.Minute) // the worker died; its lease runs out
	}
	if _, ok, _ := q.Lease(ctx, time.Minute); ok {
		t.Errorf("a job whose worker died %d times was leased again", DefaultMaxAttempts)
	}
	dead, _ := q.List(ctx, "dead")
	if len(dead) != 1 {
		t.Errorf("dead = %+v", dead)
	}
	if n, _ := q.Prune(ctx, c.t.Add(time.Hour)); n != 1 {
		t.Errorf("Prune = %d, want 1", n)
	}
}

func TestBackoff(t *testing.T) {
	for _, tt := range []struct {
		attempts int
		want     time.Duration
	}{{1, 30 * time.Second}, {2, time.Minute}, {3, 2 * time.Minute}, {20, time.Hour}} {
		if got := backoff(tt.attempts); got != tt.want {
			t.Errorf("backoff(%d) = %v, want %v", tt.attempts, got, tt.want)
		}
	}
}

func TestSpend(t *testing.T) {
	q, _ := mustOpen(t)
	ctx := context.Background()
	q.AddSpent(ctx, "2026-11-30", 100)
	q.AddSpent(ctx, "2026-11-30", 50)
	q.AddSpent(ctx, "2026-12-01", 7)
	if n, _ := q.Spent(ctx, "2026-11-30"); n != 150 {
		t.Errorf("Spent = %d, want 150", n)
	}
	if n, _ := q.Spent(ctx, "2026-11-29"); n != 0 {
		t.Errorf("Spent on an empty day = %d", n)
	}
}

// TestMigrate opens a queue.db made before the last migration existed: the
// missing one is applied once, the jobs stay, and opening again changes
// nothing.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	q, err := Open(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, err := q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	if err != nil {
		t.Fatal(err)
	}
	// Back to the state before 002_spend.
	if _, err := q.db.ExecContext(ctx, `DROP TABLE spend; DELETE FROM migrations WHERE name = 'migration/002_spend.sql'`); err != nil {
		t.Fatal(err)
	}
	q.Close()
	for range 2 {
		q, err = Open(ctx, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.AddSpent(ctx, "2026-11-30", 10); err != nil {
			t.Errorf("after reopening, the spend table: %v", err)
		}
		var n int
		files, _ := fs.Glob(migrations, "migration/*.sql")
		if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM migrations`).Scan(&n); err != nil || n != len(files) {
			t.Errorf("migrations recorded: %d, %v; want %d", n, err, len(files))
		}
		if js, err := q.List(ctx); err != nil || len(js) != 1 || js[0].ID != id {
			t.Errorf("jobs after migrating: %+v, %v; want job %d", js, err, id)
		}
		q.Close()
	}
}

// TestCompleteSkippedAndParts: a skipped job keeps its reason, and the
// transcripts read with a job's own get their offsets.
func TestCompleteSkippedAndParts(t *testing.T) {
	q, _ := mustOpen(t)
	ctx := context.Background()
	q.Enqueue(ctx, Job{Session: "s", Transcript: "/t/s.jsonl", Event: "session-end"})
	j, _, _ := q.Lease(ctx, time.Minute)
	if err := q.Complete(ctx, j, Result{Skipped: "too little work to be worth a model call (1 prompt)"}); err != nil {
		t.Fatal(err)
	}
	q.Enqueue(ctx, Job{Session: "s", Transcript: "/t/s.jsonl", Event: "session-end"})
	j, _, _ = q.Lease(ctx, time.Minute)
	parts := []Part{{Session: "s/agent-a1", Transcript: "/t/s/subagents/agent-a1.jsonl", EndOff: 700}}
	if err := q.Complete(ctx, j, Result{EndOff: 900, Facts: 1, Parts: parts}); err != nil {
		t.Fatal(err)
	}
	jobs, _ := q.List(ctx)
	if len(jobs) != 2 || jobs[1].Skipped != "too little work to be worth a model call (1 prompt)" || jobs[0].Skipped != "" {
		t.Errorf("jobs = %+v, want the first skipped with its reason, the second not", jobs)
	}
	for session, want := range map[string]int64{"s": 900, "s/agent-a1": 700} {
		tr := map[string]string{"s": "/t/s.jsonl", "s/agent-a1": "/t/s/subagents/agent-a1.jsonl"}[session]
		if off, _ := q.Offset(ctx, session, tr); off != want {
			t.Errorf("Offset(%q) = %d, want %d", session, off, want)
		}
	}
	if tot, _ := q.Totals(ctx, time.Time{}); tot.Jobs != 2 || tot.Skipped != 1 || tot.Facts != 1 {
		t.Errorf("Totals = %+v, want 2 jobs, 1 skipped, 1 fact", tot)
	}
}
