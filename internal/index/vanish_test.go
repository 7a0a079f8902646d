package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSearchAfterIndexDeleted deletes the index under an open DB, between
// its open (and sync) and a search, as a person removing the state folder
// while a command runs does: the search must not fail (SQLite had opened
// a new connection on a new, empty file, and the search failed with "no
// such table: df"), and it answers from the index it began with.
func TestSearchAfterIndexDeleted(t *testing.T) {
	tests := []struct {
		name   string
		delete func(state string) error
	}{
		{"state folder removed", os.RemoveAll},
		{"index files removed", func(state string) error {
			for _, f := range []string{FileName, FileName + "-wal", FileName + "-shm", HistoryFileName} {
				if err := os.Remove(filepath.Join(state, f)); err != nil && !os.IsNotExist(err) {
					return err
				}
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			state := filepath.Join(t.TempDir(), "state")
			db, err := Open(ctx, filepath.Join(state, FileName), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			dir := t.TempDir()
			writeFile(t, dir, "alpha.md", memFile("alpha", "Alpha uses the postgres driver", "Body of alpha."))
			if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
				t.Fatal(err)
			}
			if err := tt.delete(state); err != nil {
				t.Fatal(err)
			}
			res, err := db.Search(ctx, WordQuery{Terms: []string{"postgres"}, Weights: defaultWeights, Limit: 10})
			if err != nil {
				t.Fatalf("Search after the index was deleted: %v", err)
			}
			if len(res.Hits) != 1 || res.Hits[0].Head.Name != "alpha" {
				t.Errorf("Search after the index was deleted = %+v, want alpha", res.Hits)
			}
			if err := db.RecordRecall(ctx, timeAgo(), Key{Source: "project", Name: "alpha"}); err != nil {
				t.Errorf("RecordRecall after the index was deleted: %v", err)
			}
			// A sync after it fills the index now at the path.
			writeFile(t, dir, "beta.md", memFile("beta", "Beta talks to redis", "Body of beta."))
			if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
				t.Fatalf("Sync after the index was deleted: %v", err)
			}
			if _, err := os.Stat(filepath.Join(state, FileName)); err != nil {
				t.Errorf("after Sync, no index at the path: %v", err)
			}
			for _, term := range []string{"postgres", "redis"} {
				res, err := db.Search(ctx, WordQuery{Terms: []string{term}, Weights: defaultWeights, Limit: 10})
				if err != nil || len(res.Hits) != 1 {
					t.Errorf("after Sync, Search(%q) = %+v, %v; want one hit", term, res.Hits, err)
				}
			}
		})
	}
}
