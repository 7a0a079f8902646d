package queue

import (
	"context"
	"errors"
	"testing"
)

// TestLeaseLost: once a job's lease ran out and another worker took it,
// the first worker can neither renew, complete, fail nor release it: the
// job is done once, by the worker that holds it.
func TestLeaseLost(t *testing.T) {
	q, c := mustOpen(t)
	ctx := context.Background()
	q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	first, _, _ := q.Lease(ctx, DefaultLease)
	if err := q.Renew(ctx, first, DefaultLease); err != nil {
		t.Fatalf("Renew by the holder = %v", err)
	}
	c.advance(DefaultLease)
	second, ok, _ := q.Lease(ctx, DefaultLease)
	if !ok || second.ID != first.ID {
		t.Fatalf("Lease after the lease ran out = %v, %v; want job %d", second.ID, ok, first.ID)
	}
	ops := map[string]func() error{
		"Renew":    func() error { return q.Renew(ctx, first, DefaultLease) },
		"Complete": func() error { return q.Complete(ctx, first, Result{}) },
		"Fail":     func() error { return q.Fail(ctx, first, errors.New("x"), DefaultMaxAttempts) },
		"Release":  func() error { return q.Release(ctx, first) },
	}
	for name, op := range ops {
		if err := op(); !errors.Is(err, ErrLeaseLost) {
			t.Errorf("%s by the worker that lost the lease = %v, want ErrLeaseLost", name, err)
		}
	}
	if err := q.Complete(ctx, second, Result{EndOff: 10}); err != nil {
		t.Errorf("Complete by the holder = %v", err)
	}
}

// TestRelease: a released job is pending again, its attempt not counted.
func TestRelease(t *testing.T) {
	q, _ := mustOpen(t)
	ctx := context.Background()
	id, _ := q.Enqueue(ctx, Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	j, _, _ := q.Lease(ctx, DefaultLease)
	if err := q.Release(ctx, j); err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Get(ctx, id); got.State != "pending" || got.Attempts != 0 || !got.LeaseUntil.IsZero() {
		t.Errorf("released job: %s, %d attempts, lease %v; want pending, 0, none", got.State, got.Attempts, got.LeaseUntil)
	}
}
