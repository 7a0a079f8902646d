package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRebuild edits a file in place with its size and time kept, which a
// sync does not see, and checks that Rebuild reads it again and keeps the
// history.
func TestRebuild(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{Name: "project", Dir: dir}
	writeFile(t, dir, "alpha.md", memFile("alpha", "Alpha uses the postgres driver", "Body of alpha."))
	writeFile(t, dir, "beta.md", memFile("beta", "Beta talks to redis", "Body of beta."))
	if _, err := db.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	beta := Key{Source: "project", Name: "beta"}
	if err := db.RecordInjection(ctx, "s1", time.Now(), beta); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "beta.md")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(memFile("beta", "Beta talks to mysql", "Body of beta.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	search := func(term string) []string {
		t.Helper()
		res, err := db.Search(ctx, WordQuery{Terms: []string{term}, Weights: defaultWeights, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return names(t, db, res.Hits)
	}
	// The change time moved: a sync sees the edit (it did not, before
	// the stamp held more than the size and the modification time).
	if st, err := db.Sync(ctx, src); err != nil || st.Updated != 1 {
		t.Fatalf("Sync after an edit with its size and time kept = %+v, %v; want 1 updated", st, err)
	}
	st, err := db.Rebuild(ctx, src)
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	if st.Added != 2 || st.Updated+st.Removed != 0 {
		t.Errorf("Rebuild = %+v, want 2 added", st)
	}
	for _, c := range []struct {
		term string
		want []string
	}{{"mysql", []string{"beta"}}, {"redis", nil}, {"postgres", []string{"alpha"}}} {
		if got := search(c.term); !slices.Equal(got, c.want) {
			t.Errorf("after Rebuild, Search(%q) = %v, want %v", c.term, got, c.want)
		}
	}
	if ok, err := db.WasInjected(ctx, "s1", beta); err != nil || !ok {
		t.Errorf("after Rebuild, WasInjected(s1, beta) = %v, %v; want true (the history is kept)", ok, err)
	}
}

// TestRebuildKeepsVectors: a rebuild keeps the vector of a memory whose
// text is unchanged (re-embedding a vault of 10,000 takes the model about
// 14 minutes) and drops the one of a memory edited in place.
func TestRebuildKeepsVectors(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{Name: "project", Dir: dir}
	writeFile(t, dir, "alpha.md", memFile("alpha", "Alpha uses the postgres driver", "Body of alpha."))
	writeFile(t, dir, "beta.md", memFile("beta", "Beta talks to redis", "Body of beta."))
	if _, err := db.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	if n, err := db.EmbedMissing(ctx, hashEmbedder{}, nil); err != nil || n != 2 {
		t.Fatalf("EmbedMissing = %d, %v; want 2", n, err)
	}
	path := filepath.Join(dir, "beta.md")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(memFile("beta", "Beta talks to mysql", "Body of beta.")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Rebuild(ctx, src); err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	if n, err := db.MissingVectors(ctx, hashEmbedder{}.ModelID()); err != nil || n != 1 {
		t.Errorf("after Rebuild, MissingVectors = %d, %v; want 1 (beta's text changed, alpha's did not)", n, err)
	}
	if n, err := db.EmbedMissing(ctx, hashEmbedder{}, nil); err != nil || n != 1 {
		t.Errorf("EmbedMissing after Rebuild = %d, %v; want 1", n, err)
	}
}
