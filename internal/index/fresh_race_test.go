package index

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// freshState writes n memories into a folder and returns the path of an
// index.db not made yet, in a state folder that holds nothing (kind
// "new state folder") or only an empty history.db, as SQLite's ATTACH
// leaves one (kind "empty history.db").
func freshState(t *testing.T, n int, emptyHistory bool) (path, dir string) {
	t.Helper()
	dir = t.TempDir()
	for i := range n {
		name := fmt.Sprintf("m%03d", i)
		writeFile(t, dir, name+".md", memFile(name, fmt.Sprintf("Service %d uses the postgres driver", i), "A body with some words."))
	}
	state := t.TempDir()
	if emptyHistory {
		if err := os.WriteFile(filepath.Join(state, HistoryFileName), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(state, FileName), dir
}

// TestFreshStateRace has several handles (the hooks of a first session
// and the worker) open an index and a history that do not exist yet, at
// the same moment: each makes what it finds missing, and none reads a
// history.db whose tables another has not made yet ("no such table").
func TestFreshStateRace(t *testing.T) {
	const memories, handles = 20, 8
	for _, empty := range []bool{false, true} {
		t.Run(fmt.Sprintf("empty history %v", empty), func(t *testing.T) {
			path, dir := freshState(t, memories, empty)
			ctx := context.Background()
			start := make(chan struct{})
			var wg sync.WaitGroup
			errs, hits := make([]error, handles), make([]int, handles)
			for i := range handles {
				wg.Go(func() {
					<-start
					hits[i], errs[i] = answer(ctx, path, dir, slog.New(slog.DiscardHandler))
				})
			}
			close(start)
			wg.Wait()
			for i := range handles {
				if errs[i] != nil || hits[i] != memories {
					t.Errorf("handle %d: open, sync and search = %d hits, %v; want %d, no error", i, hits[i], errs[i], memories)
				}
			}
		})
	}
}

// TestFreshStateRaceProcesses is [TestFreshStateRace] with processes:
// each switching a new index.db to WAL mode at once, all but one failed
// with SQLITE_BUSY (6 of 8 processes, in 1 of 150 runs).
func TestFreshStateRaceProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const memories, procs = 20, 8
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, empty := range []bool{false, true} {
		t.Run(fmt.Sprintf("empty history %v", empty), func(t *testing.T) {
			path, dir := freshState(t, memories, empty)
			answerInProcesses(t, exe, path, dir, procs, memories)
		})
	}
}
