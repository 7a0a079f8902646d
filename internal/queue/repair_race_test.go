package queue

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// overwriteRoot overwrites the root page of table in the queue.db at
// path: the file opens, and quick_check finds it damaged, but a handle
// already open that never reads that table goes on writing to it.
func overwriteRoot(table string) func(string) error {
	return func(path string) error {
		s, err := sql.Open("sqlite", sqlitefile.URI(path, "mode=ro"))
		if err != nil {
			return err
		}
		var size, root int64
		err = s.QueryRow("PRAGMA page_size").Scan(&size)
		if err == nil {
			err = s.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", table).Scan(&root)
		}
		if cerr := s.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("root page of %s: %w", table, err)
		}
		return overwrite((root-1)*size, []byte(strings.Repeat("\xa5", int(size))))(path)
	}
}

// TestRepairWhileEnqueuing: while one process repairs a damaged queue.db,
// others that had it open (a worker, an ingest) and others that open it
// (hooks) go on enqueueing. Every job whose Enqueue returned must be in
// the queue after, and no Enqueue may fail: a failed capture is a session
// whose facts are lost.
func TestRepairWhileEnqueuing(t *testing.T) {
	tests := []struct {
		name   string
		damage func(string) error
	}{
		{"spend table overwritten", overwriteRoot("spend")},
		{"sessions table overwritten", overwriteRoot("sessions")},
	}
	const open, hooks, each = 3, 4, 8
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state, transcript := damagedQueue(t, func(string) error { return nil })
			var held []*Queue
			for range open {
				q, err := Open(ctx, state, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer q.Close()
				held = append(held, q)
			}
			if err := tt.damage(filepath.Join(state, FileName)); err != nil {
				t.Fatal(err)
			}
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				sent []string
			)
			enqueue := func(q *Queue, session string) {
				if _, err := q.Enqueue(ctx, Job{Session: session, Transcript: transcript, Event: "session-end"}); err != nil {
					t.Errorf("enqueue %s: %v", session, err)
					return
				}
				mu.Lock()
				sent = append(sent, session)
				mu.Unlock()
			}
			for i, q := range held {
				wg.Go(func() {
					for j := range each {
						enqueue(q, fmt.Sprintf("held%d-%d", i, j))
					}
				})
			}
			for i := range hooks {
				wg.Go(func() {
					for j := range each / 2 {
						q, err := Open(ctx, state, nil)
						if err != nil {
							t.Errorf("open: %v", err)
							continue
						}
						enqueue(q, fmt.Sprintf("hook%d-%d", i, j))
						q.Close()
					}
				})
			}
			wg.Wait()
			q, err := Open(ctx, state, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer q.Close()
			jobs, err := q.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			have := make(map[string]bool)
			for _, j := range jobs {
				have[j.Session] = true
			}
			var lost []string
			for _, s := range sent {
				if !have[s] {
					lost = append(lost, s)
				}
			}
			if len(lost) > 0 {
				t.Errorf("%d of %d enqueued jobs lost: %v", len(lost), len(sent), lost)
			}
			if ds, _ := Damages(state); len(ds) != 1 {
				t.Errorf("set aside %d times, want once", len(ds))
			}
			if _, err := os.Stat(filepath.Join(state, FileName)); err != nil {
				t.Error(err)
			}
		})
	}
}
