package queue

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"testing"
	"time"
)

// TestStaleHandleAfterRepair: a handle opened before another process
// repaired queue.db (the worker's, or an ingest's) retries, drops and
// prunes jobs in the file now at the path, not in the damaged one set
// aside: a job dropped would come back, a retry would be forgotten.
func TestStaleHandleAfterRepair(t *testing.T) {
	tests := []struct {
		name string
		op   func(ctx context.Context, q *Queue, dead, pending int64) error
		want map[string]int // jobs by state after: the repair copied p (dead) and q (pending)
	}{
		{"retry", func(ctx context.Context, q *Queue, dead, _ int64) error {
			return q.Retry(ctx, dead)
		}, map[string]int{"pending": 2}},
		{"drop a dead job", func(ctx context.Context, q *Queue, dead, _ int64) error {
			return q.Drop(ctx, dead)
		}, map[string]int{"pending": 1}},
		{"drop a pending job", func(ctx context.Context, q *Queue, _, pending int64) error {
			return q.Drop(ctx, pending)
		}, map[string]int{"dead": 1}},
		{"prune", func(ctx context.Context, q *Queue, _, _ int64) error {
			n, err := q.Prune(ctx, time.Now().Add(time.Hour))
			if err == nil && n != 1 {
				err = fmt.Errorf("pruned %d jobs, want 1", n)
			}
			return err
		}, map[string]int{"pending": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state, transcript := damagedQueue(t, func(string) error { return nil })
			stale, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer stale.Close()
			dead := leaseAndKill(t, stale, "p")
			pending, err := stale.Enqueue(ctx, Job{Session: "q", Transcript: transcript, Event: "session-end"})
			if err != nil {
				t.Fatal(err)
			}
			// Another process finds the file damaged and repairs it.
			if err := overwriteRoot("spend")(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			other, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			other.Close()
			if ds, _ := Damages(state); len(ds) != 1 {
				t.Fatalf("set aside %d times, want once", len(ds))
			}
			if err := tt.op(ctx, stale, dead, pending); err != nil {
				t.Fatalf("%s through the handle opened before the repair: %v", tt.name, err)
			}
			fresh, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			got, err := fresh.Counts(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tt.want) {
				t.Errorf("after %s: jobs by state = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

// leaseAndKill leases the next job, which must be session's, and makes
// it dead. It returns its id.
func leaseAndKill(t *testing.T, q *Queue, session string) int64 {
	t.Helper()
	ctx := context.Background()
	j, _, err := q.Lease(ctx, DefaultLease)
	if err != nil || j.Session != session {
		t.Fatalf("Lease = %+v, %v; want %s", j, err, session)
	}
	if err := q.Fail(ctx, j, errors.New("boom"), 1); err != nil {
		t.Fatal(err)
	}
	return j.ID
}
