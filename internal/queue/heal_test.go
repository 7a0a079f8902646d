package queue

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fillJobs enqueues n pending jobs into the queue.db at path, closed
// after: its WAL checkpointed.
func fillJobs(n int) func(path string) error {
	return func(path string) error {
		ctx := context.Background()
		q, err := Open(ctx, filepath.Dir(path), nil)
		if err != nil {
			return err
		}
		for i := range n {
			if _, err := q.Enqueue(ctx, Job{Session: fmt.Sprintf("fill-%d", i), Transcript: path + ".jsonl", Event: "session-end"}); err != nil {
				q.Close()
				return err
			}
		}
		return q.Close()
	}
}

// TestWriteHealsDamage: a table of queue.db is damaged under handles
// already open (the worker's, a hook's between its open and its
// enqueue); one of them writes another table, so the other's pages are
// read from the file again. The first write that meets the damage
// repairs the file and is made again in the new one: the stop hook's
// capture is not lost, nor is any job the damaged file held.
func TestWriteHealsDamage(t *testing.T) {
	tests := []struct {
		name  string
		table string
		write func(ctx context.Context, q *Queue, transcript string) error
	}{
		{"enqueue, jobs damaged", "jobs", func(ctx context.Context, q *Queue, transcript string) error {
			_, err := q.Enqueue(ctx, Job{Session: "new", Transcript: transcript, Event: "session-end"})
			return err
		}},
		{"enqueue, its index damaged", "jobs_session", func(ctx context.Context, q *Queue, transcript string) error {
			_, err := q.Enqueue(ctx, Job{Session: "new", Transcript: transcript, Event: "session-end"})
			return err
		}},
		{"add spent, spend damaged", "spend", func(ctx context.Context, q *Queue, _ string) error {
			return q.AddSpent(ctx, "2026-12-02", 10)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			// Enough jobs that the table's root is not the page that
			// holds them: overwriting it loses no row for good.
			state, transcript := damagedQueue(t, fillJobs(60))
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
			if tt.table == "spend" {
				_, err = other.Enqueue(ctx, Job{Session: "other", Transcript: transcript, Event: "session-end"})
			} else {
				err = other.AddSpent(ctx, "2026-12-01", 1)
			}
			if err != nil {
				t.Fatalf("a write to another table: %v", err)
			}
			if err := tt.write(ctx, q, transcript); err != nil {
				t.Fatalf("%s on a damaged queue.db: %v, want it repaired and the write made", tt.name, err)
			}
			ds, err := Damages(state)
			if err != nil || len(ds) != 1 {
				t.Fatalf("Damages = %+v, %v; want one", ds, err)
			}
			fresh, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			jobs, err := fresh.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var sessions []string
			for _, j := range jobs {
				sessions = append(sessions, j.Session)
			}
			// p, pending in the damaged file, is in the new queue, or
			// its transcript is named to ingest again.
			if !slices.Contains(sessions, "p") && !slices.Contains(ds[0].Transcripts, transcript) {
				t.Errorf("the pending job p is lost: jobs %q, to ingest %q", sessions, ds[0].Transcripts)
			}
			if tt.table != "spend" && !slices.Contains(sessions, "new") {
				t.Errorf("the job enqueued is not in the new queue: jobs %q", sessions)
			}
			if tt.table == "spend" {
				if n, err := fresh.Spent(ctx, "2026-12-02"); err != nil || n != 10 {
					t.Errorf("Spent = %d, %v; want 10", n, err)
				}
			}
		})
	}
}

// TestCutWAL: the worker has queue.db open, with jobs enqueued since the
// last checkpoint still in the WAL, when the WAL is cut short in the
// middle of a frame (a full disk, a crash of the machine). The shared
// memory the worker keeps lists the frames; a read of one ends early
// (SQLITE_IOERR_SHORT_READ). The stop hook's enqueue must repair the
// file, not fail with "disk I/O error" for as long as the worker runs.
func TestCutWAL(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	worker, err := Open(ctx, state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close()
	transcript := filepath.Join(state, "t.jsonl")
	for i := range 20 {
		if _, err := worker.Enqueue(ctx, Job{Session: fmt.Sprintf("s-%d", i), Transcript: transcript, Event: "session-end"}); err != nil {
			t.Fatal(err)
		}
	}
	const header, frameHeader = 32, 24 // a WAL's header; a frame's, before its page
	if err := os.Truncate(filepath.Join(state, FileName)+"-wal", header+frameHeader+100); err != nil {
		t.Fatal(err)
	}
	hook, err := Open(ctx, state, nil)
	if err != nil {
		t.Fatalf("the stop hook opening the queue with its WAL cut: %v", err)
	}
	defer hook.Close()
	if _, err := hook.Enqueue(ctx, Job{Session: "new", Transcript: transcript, Event: "session-end"}); err != nil {
		t.Fatalf("the stop hook's enqueue: %v", err)
	}
	jobs, err := worker.List(ctx)
	if err != nil || !slices.ContainsFunc(jobs, func(j Job) bool { return j.Session == "new" }) {
		t.Errorf("the worker's list after the repair = %d jobs, %v; want the new one among them", len(jobs), err)
	}
}
