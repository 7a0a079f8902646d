package queue

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneDaily: done jobs past the retention go, at most once a day;
// newer done jobs and dead ones stay.
func TestPruneDaily(t *testing.T) {
	q, c := mustOpen(t)
	ctx := context.Background()
	finish := func(session string, ok bool) {
		t.Helper()
		if _, err := q.Enqueue(ctx, Job{Session: session, Transcript: "/t/" + session, Event: "session-end"}); err != nil {
			t.Fatal(err)
		}
		j, leased, err := q.Lease(ctx, time.Minute)
		if err != nil || !leased {
			t.Fatalf("Lease = %v, %v", leased, err)
		}
		if ok {
			err = q.Complete(ctx, j, Result{EndOff: 10})
		} else {
			err = q.Fail(ctx, j, errors.New("boom"), 1)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	finish("old", true)
	finish("dead", false)
	c.advance(Retention - time.Hour)
	finish("new", true)
	sessions := func() map[string]bool {
		t.Helper()
		jobs, err := q.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, j := range jobs {
			out[j.Session] = true
		}
		return out
	}
	steps := []struct {
		name    string
		advance time.Duration
		pruned  int
		left    []string
	}{
		{"nothing past the retention yet", 0, 0, []string{"old", "dead", "new"}},
		{"past it, but pruned less than a day ago", 2 * time.Hour, 0, []string{"old", "dead", "new"}},
		{"a day after the last prune", pruneEvery - 2*time.Hour, 1, []string{"dead", "new"}},
		{"the newer one past it, a day later", Retention, 1, []string{"dead"}},
		{"the clock set back: due", -3 * Retention, 0, []string{"dead"}},
	}
	for _, s := range steps {
		c.advance(s.advance)
		n, err := q.PruneDaily(ctx, c.t)
		if err != nil {
			t.Fatalf("%s: PruneDaily: %v", s.name, err)
		}
		if n != s.pruned {
			t.Errorf("%s: PruneDaily = %d, want %d", s.name, n, s.pruned)
		}
		got := sessions()
		if len(got) != len(s.left) {
			t.Errorf("%s: jobs left %v, want %v", s.name, got, s.left)
		}
		for _, w := range s.left {
			if !got[w] {
				t.Errorf("%s: jobs left %v, want %v", s.name, got, s.left)
			}
		}
	}
	stamp, err := os.ReadFile(filepath.Join(filepath.Dir(q.path), PrunedFile))
	if want := formatTime(c.t) + "\n"; err != nil || string(stamp) != want {
		t.Errorf("%s = %q, %v; want %q (the clock set back was due, and recorded)", PrunedFile, stamp, err, want)
	}
}
