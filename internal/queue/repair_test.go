package queue

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
)

// damagedQueue makes a queue in a new state folder holding a pending job
// and a done one for transcripts that exist, then damages its file with
// damage (the queue closed, its WAL checkpointed).
func damagedQueue(t *testing.T, damage func(path string) error) (state, pending string) {
	t.Helper()
	ctx := context.Background()
	state = t.TempDir()
	pending, done := filepath.Join(state, "pending.jsonl"), filepath.Join(state, "done.jsonl")
	for _, p := range []string{pending, done} {
		os.WriteFile(p, []byte("{}\n"), 0o644)
	}
	q, err := Open(ctx, state, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.Enqueue(ctx, Job{Session: "d", Transcript: done, Event: "session-end"}); err != nil {
		t.Fatal(err)
	}
	j, _, err := q.Lease(ctx, DefaultLease)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Complete(ctx, j, Result{}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Enqueue(ctx, Job{Session: "p", Transcript: pending, Event: "session-end"}); err != nil {
		t.Fatal(err)
	}
	q.Close()
	if err := damage(filepath.Join(state, FileName)); err != nil {
		t.Fatal(err)
	}
	return state, pending
}

func overwrite(at int64, data []byte) func(string) error {
	return func(path string) error {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteAt(data, at)
		return err
	}
}

// TestOpenDamaged: a damaged queue.db is set aside, a new one is made,
// and what it held unprocessed is recorded: exactly when SQLite can still
// read its jobs, else the transcripts its bytes name.
func TestOpenDamaged(t *testing.T) {
	tests := []struct {
		name   string
		damage func(string) error
		exact  bool // the pending job's transcript alone is named
		none   bool // nothing can be read
		kept   bool // the pending job is copied into the new queue
	}{
		{"header garbage", overwrite(0, bytes.Repeat([]byte("garbage!"), 13)), false, false, false},
		{"truncated to nothing", func(p string) error { return os.Truncate(p, 0) }, false, true, false},
		{"truncated to one page", func(p string) error { return os.Truncate(p, 4096) }, false, true, false},
		{"a page overwritten", overwrite(4096, bytes.Repeat([]byte{0xff}, 4096)), false, false, false},
		{"spend table overwritten", overwriteRoot("spend"), false, false, true},
		{"sessions table overwritten", overwriteRoot("sessions"), false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state, pending := damagedQueue(t, tt.damage)
			if err := Check(ctx, state); !IsDamaged(err) {
				t.Errorf("Check = %v, want damaged", err)
			}
			q, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatalf("Open = %v, want the queue set aside and made anew", err)
			}
			defer q.Close()
			if _, err := q.Enqueue(ctx, Job{Session: "new", Transcript: pending, Event: "session-end"}); err != nil {
				t.Errorf("Enqueue after the repair: %v", err)
			}
			if err := Check(ctx, state); err != nil {
				t.Errorf("Check after the repair = %v", err)
			}
			ds, err := Damages(state)
			if err != nil || len(ds) != 1 {
				t.Fatalf("Damages = %v, %v; want one", ds, err)
			}
			d := ds[0]
			if _, err := os.Stat(d.Aside); err != nil {
				t.Errorf("the damaged file is not kept: %v", err)
			}
			switch {
			case tt.kept:
				jobs, err := q.List(ctx, "pending")
				if err != nil || len(jobs) != 2 || jobs[1].Session != "p" || d.Kept != 1 || len(d.Transcripts) != 0 {
					t.Errorf("pending jobs = %+v, %v; Kept, Transcripts = %d, %q; want p copied over and the new one, Kept 1, none to ingest", jobs, err, d.Kept, d.Transcripts)
				}
			case tt.none && len(d.Transcripts) != 0:
				t.Errorf("Transcripts = %q, want none", d.Transcripts)
			case tt.exact && (!d.Exact || !slices.Equal(d.Transcripts, []string{pending})):
				t.Errorf("Transcripts, Exact = %q, %v; want [%s], true", d.Transcripts, d.Exact, pending)
			case !tt.none && !tt.exact && !d.Exact && !slices.Contains(d.Transcripts, pending):
				t.Errorf("Transcripts = %q, want %s among them", d.Transcripts, pending)
			}
			t.Logf("%s: %s; fix: %s", tt.name, d.Problem, d.Fix())
		})
	}
}

// TestOpenDamagedAtOnce: processes that find the queue damaged together
// set it aside once, and every job they add after is in the new queue.
func TestOpenDamagedAtOnce(t *testing.T) {
	ctx := context.Background()
	state, pending := damagedQueue(t, overwrite(0, bytes.Repeat([]byte("garbage!"), 13)))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Go(func() {
			q, err := Open(ctx, state, nil)
			if err != nil {
				errs <- err
				return
			}
			defer q.Close()
			if _, err := q.Enqueue(ctx, Job{Session: fmt.Sprint(i), Transcript: pending, Event: "session-end"}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if ds, _ := Damages(state); len(ds) != 1 {
		t.Errorf("set aside %d times, want once: %+v", len(ds), ds)
	}
	q, err := Open(ctx, state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if jobs, _ := q.List(ctx); len(jobs) != 8 {
		t.Errorf("%d jobs in the new queue, want 8", len(jobs))
	}
}
