package index

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
)

var defaultWeights = Weights{Name: 2, Description: 4, Body: 1, Tags: 2, Files: 2}

func TestSync(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{Name: "project", Dir: dir}
	writeFile(t, dir, "alpha.md", memFile("alpha", "Alpha uses the postgres driver", "Body of alpha. See [[beta]]."))
	writeFile(t, dir, "beta.md", memFile("beta", "Beta talks to redis", "Body of beta."))
	writeFile(t, dir, "MEMORY.md", "# Memory index\n")
	writeFile(t, dir, ".hidden.md", memFile("hidden", "hidden", "x"))
	writeFile(t, dir, "notes.txt", "not a memory")

	search := func(term string) []string {
		t.Helper()
		res, err := db.Search(ctx, WordQuery{Terms: []string{term}, Weights: defaultWeights, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		got := names(t, db, res.Hits)
		slices.Sort(got)
		return got
	}
	steps := []struct {
		name   string
		change func()
		want   SyncStats
		term   string
		found  []string
	}{
		{"cold", func() {}, SyncStats{Added: 2}, "body", []string{"alpha", "beta"}},
		{"nothing changed", func() {}, SyncStats{Unchanged: 2}, "postgres", []string{"alpha"}},
		{"edit", func() {
			writeFile(t, dir, "beta.md", memFile("beta", "Beta talks to memcached", "Body of beta."))
		}, SyncStats{Updated: 1, Unchanged: 1}, "memcached", []string{"beta"}},
		{"edited word gone", func() {}, SyncStats{Unchanged: 2}, "redis", nil},
		{"touch without change", func() {
			writeFile(t, dir, "alpha.md", memFile("alpha", "Alpha uses the postgres driver", "Body of alpha. See [[beta]]."))
			os.Chtimes(filepath.Join(dir, "alpha.md"), timeAgo(), timeAgo())
		}, SyncStats{Unchanged: 2}, "postgres", []string{"alpha"}},
		{"rename", func() {
			os.Remove(filepath.Join(dir, "beta.md"))
			writeFile(t, dir, "gamma.md", memFile("gamma", "Beta talks to memcached", "Body of beta."))
		}, SyncStats{Added: 1, Removed: 1, Unchanged: 1}, "memcached", []string{"gamma"}},
		{"delete", func() {
			os.Remove(filepath.Join(dir, "gamma.md"))
		}, SyncStats{Removed: 1, Unchanged: 1}, "memcached", nil},
	}
	for _, s := range steps {
		s.change()
		got, err := db.Sync(ctx, src)
		if err != nil {
			t.Fatalf("%s: Sync: %v", s.name, err)
		}
		if len(got.Problems) > 0 {
			t.Errorf("%s: Sync problems: %v", s.name, got.Problems)
		}
		got.Problems = nil
		if got.Added != s.want.Added || got.Updated != s.want.Updated ||
			got.Removed != s.want.Removed || got.Unchanged != s.want.Unchanged {
			t.Errorf("%s: Sync = %+v, want %+v", s.name, got, s.want)
		}
		if found := search(s.term); !slices.Equal(found, s.found) {
			t.Errorf("%s: Search(%q) = %v, want %v", s.name, s.term, found, s.found)
		}
	}
}

func TestSyncProblems(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	writeFile(t, dir, "good.md", memFile("good", "A good memory", "fine"))
	writeFile(t, dir, "bad.md", "no header here\n")
	st, err := db.Sync(ctx, Source{Name: "project", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || len(st.Problems) != 1 || !strings.Contains(st.Problems[0].Error(), "bad.md") {
		t.Fatalf("Sync = %+v, want 1 added and a problem naming bad.md", st)
	}
	// A file that stops parsing leaves the index.
	writeFile(t, dir, "good.md", "---\nname: [unclosed\n")
	st, err = db.Sync(ctx, Source{Name: "project", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 1 || len(st.Problems) != 2 {
		t.Errorf("Sync after breaking good.md = %+v, want 1 removed and 2 problems", st)
	}
	if n, _ := db.Count(ctx); n != 0 {
		t.Errorf("Count = %d, want 0", n)
	}
}

// TestSyncInvalid: a file that parses but fails validation (what lint
// calls an error) is left out of the index, and leaves it when it starts
// failing; fixed, it comes back.
func TestSyncInvalid(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{Name: "project", Dir: dir}
	writeFile(t, dir, "good.md", memFile("good", "A good memory", "fine"))
	writeFile(t, dir, "kept.md", memFile("kept", "Kept until it breaks", "fine"))
	if _, err := db.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	invalid := map[string]string{
		"kept.md":           memFile("other", "Kept until it breaks", "renamed in the header"),
		"mismatch.md":       memFile("not-mismatch", "A name that is not the file's", "x"),
		"Bad_Name.md":       memFile("Bad_Name", "A name that is no name", "x"),
		"bad-type.md":       "---\nname: bad-type\ndescription: An unknown type\ntype: proj\n---\nx\n",
		"long.md":           memFile("long", strings.Repeat("d", 151), "x"),
		"control.md":        memFile("control", "\"A bell\\a in it\"", "x"),
		"bad-confidence.md": memFile("bad-confidence", "Too sure", "x", "confidence: 7"),
	}
	for name, text := range invalid {
		writeFile(t, dir, name, text)
	}
	st, err := db.Sync(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 1 || st.Added != 0 || len(st.Problems) != len(invalid) {
		t.Errorf("Sync = %+v, want kept removed, nothing added, %d problems", st, len(invalid))
	}
	for _, p := range st.Problems {
		if !strings.Contains(p.Error(), ".md:") {
			t.Errorf("problem %q names no file and line", p)
		}
	}
	if n, _ := db.Count(ctx); n != 1 {
		t.Errorf("Count = %d, want 1 (good)", n)
	}
	writeFile(t, dir, "kept.md", memFile("kept", "Kept until it breaks", "fixed"))
	if st, err := db.Sync(ctx, src); err != nil || st.Added != 1 {
		t.Errorf("Sync after the fix = %+v, %v; want kept added", st, err)
	}
}

func TestSyncSources(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	proj, user := t.TempDir(), t.TempDir()
	writeFile(t, proj, "same.md", memFile("same", "project copy", "x"))
	writeFile(t, user, "same.md", memFile("same", "user copy", "x"))
	if _, err := db.Sync(ctx, Source{"project", proj}, Source{"user", user}); err != nil {
		t.Fatal(err)
	}
	// Syncing one source leaves the other alone.
	os.Remove(filepath.Join(proj, "same.md"))
	st, err := db.Sync(ctx, Source{"project", proj})
	if err != nil {
		t.Fatal(err)
	}
	if st.Removed != 1 {
		t.Errorf("Sync(project).Removed = %d, want 1", st.Removed)
	}
	ids, err := db.Lookup(ctx, []Key{{"project", "same"}, {"user", "same"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ids[Key{"user", "same"}]; !ok || len(ids) != 1 {
		t.Errorf("Lookup = %v, want only user:same", ids)
	}
	// A missing folder holds no memories.
	st, err = db.Sync(ctx, Source{"user", filepath.Join(user, "nope")})
	if err != nil || st.Removed != 1 {
		t.Errorf("Sync(missing folder) = %+v, %v; want 1 removed", st, err)
	}
}

func TestSyncDamagedManifest(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	writeFile(t, dir, "a.md", memFile("a", "first", "x"))
	writeFile(t, dir, "b.md", memFile("b", "second", "x"))
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{"\xff\xff\xff", ""} {
		if _, err := db.sql.Exec("UPDATE manifests SET data = ?", []byte(data)); err != nil {
			t.Fatal(err)
		}
		st, err := db.Sync(ctx, Source{"project", dir})
		if err != nil || st.Unchanged != 2 || st.Changed() {
			t.Errorf("Sync with manifest %q = %+v, %v; want 2 unchanged", data, st, err)
		}
	}
}

// TestSyncLinkContext checks that a memory is found by the description of
// a memory it links to, and that the context follows edits and removals
// of the linked memory.
func TestSyncLinkContext(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{"project", dir}
	writeFile(t, dir, "linker.md", memFile("linker", "Deploy steps", "See [[target]]."))
	writeFile(t, dir, "target.md", memFile("target", "Kubernetes rollout checklist", "x"))
	find := func(word string) []string {
		t.Helper()
		res, err := db.Search(ctx, WordQuery{Terms: []string{word}, Weights: Weights{Description: 1, Context: 0.5}, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return names(t, db, res.Hits)
	}
	steps := []struct {
		name   string
		change func()
		word   string
		want   []string
	}{
		{"linked description", func() {}, "kubernetes", []string{"target", "linker"}},
		{"target edited", func() {
			writeFile(t, dir, "target.md", memFile("target", "Nomad rollout checklist", "x"))
		}, "nomad", []string{"target", "linker"}},
		{"old words gone", func() {}, "kubernetes", nil},
		{"target removed", func() { os.Remove(filepath.Join(dir, "target.md")) }, "nomad", nil},
		{"target back", func() {
			writeFile(t, dir, "target.md", memFile("target", "Podman rollout checklist", "x"))
		}, "podman", []string{"target", "linker"}},
	}
	for _, s := range steps {
		s.change()
		if _, err := db.Sync(ctx, src); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := find(s.word); !slices.Equal(got, s.want) {
			t.Errorf("%s: Search(%q) = %v, want %v", s.name, s.word, got, s.want)
		}
	}
}

// TestSyncConcurrent syncs one index from two handles at once, as a hook
// and the MCP server would from two processes: neither fails, and the
// index ends up with every file once.
func TestSyncConcurrent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	dir := t.TempDir()
	for i := range 100 {
		writeFile(t, dir, fmt.Sprintf("m%03d.md", i), memFile(fmt.Sprintf("m%03d", i), "concurrent sync", "body"))
	}
	var dbs []*DB
	for range 2 {
		db, err := Open(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	errs := make(chan error, 2*5)
	var wg sync.WaitGroup
	for _, db := range dbs {
		wg.Go(func() {
			for range 5 {
				_, err := db.Sync(ctx, Source{"project", dir})
				errs <- err
			}
		})
	}
	for i := range 20 { // edits while the syncs run
		writeFile(t, dir, fmt.Sprintf("m%03d.md", i), memFile(fmt.Sprintf("m%03d", i), "edited while syncing", "body"))
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Sync: %v", err)
		}
	}
	if _, err := dbs[0].Sync(ctx, Source{"project", dir}); err != nil {
		t.Fatal(err)
	}
	if n, err := dbs[1].Count(ctx); err != nil || n != 100 {
		t.Errorf("Count = %d, %v; want 100", n, err)
	}
	res, err := dbs[1].Search(ctx, WordQuery{Terms: []string{"edited"}, Weights: defaultWeights, Limit: 100})
	if err != nil || len(res.Hits) != 20 {
		t.Errorf("Search(edited) = %d hits, %v; want 20", len(res.Hits), err)
	}
}

// TestSyncDocFreq checks that the df table counts, after adds, edits and
// removals, what a recount from the rows gives.
func TestSyncDocFreq(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	src := Source{"project", dir}
	steps := []func(){
		func() {
			writeFile(t, dir, "a.md", memFile("a", "Caching layers", "caches and queues"))
			writeFile(t, dir, "b.md", memFile("b", "Queue workers", "queues retry"))
			writeFile(t, dir, "c.md", memFile("c", "Retry policy", "retries back off"))
		},
		func() { writeFile(t, dir, "a.md", memFile("a", "Cache keys", "tenant ids")) },
		func() { os.Remove(filepath.Join(dir, "b.md")) },
		func() { os.Rename(filepath.Join(dir, "c.md"), filepath.Join(dir, "d.md")) },
	}
	for i, step := range steps {
		step()
		if _, err := db.Sync(ctx, src); err != nil {
			t.Fatal(err)
		}
		want := make(map[string]int)
		rows, err := db.sql.Query("SELECT name, description, body, tags, files FROM memories")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var n, d, b, tg, f string
			rows.Scan(&n, &d, &b, &tg, &f)
			for _, s := range stemSet(nil, n, d, b, tg, f) {
				want[s]++
			}
		}
		rows.Close()
		got := make(map[string]int)
		rows, err = db.sql.Query("SELECT stem, n FROM df")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			var n int
			rows.Scan(&s, &n)
			got[s] = n
		}
		rows.Close()
		if !maps.Equal(got, want) {
			t.Errorf("step %d: df = %v, want %v", i, got, want)
		}
	}
}

// TestSyncSeesRewriteWithTimesKept: a memory file rewritten in place at
// the same size with its modification time set back (cp -p, rsync -t,
// touch -d), or another file put in its place with the same size and
// time, is read again by the next sync: its change time or its inode
// moved. The index answered from the old text before, until a reindex.
func TestSyncSeesRewriteWithTimesKept(t *testing.T) {
	for _, tt := range []struct {
		name    string
		rewrite func(path, text string) error
	}{
		{"in place", func(path, text string) error {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			if err != nil {
				return err
			}
			_, err = f.WriteString(text)
			return errors.Join(err, f.Close())
		}},
		{"another file", func(path, text string) error {
			tmp := path + ".tmp"
			if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			writeFile(t, dir, "deploy.md", memFile("deploy", "Deploys go to the blue cluster", "Deploys go to the blue cluster."))
			path := filepath.Join(dir, "deploy.md")
			old := time.Now().Add(-time.Hour).Truncate(time.Second)
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			db, err := Open(ctx, filepath.Join(t.TempDir(), FileName), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			src := Source{Name: "project", Dir: dir}
			if _, err := db.Sync(ctx, src); err != nil {
				t.Fatal(err)
			}
			time.Sleep(10 * time.Millisecond) // the change time's clock moves on
			if err := tt.rewrite(path, memFile("deploy", "Deploys go to the gren cluster", "Deploys go to the gren cluster.")); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, old, old); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Sync(ctx, src); err != nil {
				t.Fatal(err)
			}
			res, err := db.Search(ctx, WordQuery{Terms: []string{"gren"}, Weights: defaultWeights, Limit: 10})
			if err != nil || len(res.Hits) != 1 {
				t.Errorf("search for the new word after the rewrite = %d hits, %v; want 1", len(res.Hits), err)
			}
		})
	}
}

// TestSyncRacyFile: a file changed within filestamp.Window of a sync is
// stored with no stamp, so that the next sync reads it again: a rewrite
// at the same size in the same tick of the file system's clock keeps
// every time the stat gives. Once settled, its stamp is stored.
func TestSyncRacyFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeFile(t, dir, "deploy.md", memFile("deploy", "Deploys go to the blue cluster", "Deploys go to the blue cluster."))
	db, err := Open(ctx, filepath.Join(t.TempDir(), FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	known, err := db.storedFiles(ctx, "project")
	if err != nil {
		t.Fatal(err)
	}
	if got := known["deploy"].stamp; got != 0 {
		t.Errorf("stamp stored of a file written just now = %x; want 0", got)
	}
	later, err := statFile("project", dir, "deploy.md", time.Now().Add(filestamp.Window+time.Minute)) // writeFile moved its times ahead
	if err != nil || later.stamp == 0 {
		t.Errorf("stamp of the file once settled = %x, %v; want one", later.stamp, err)
	}
}
