package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReadAfterRepair: a handle (the MCP server's) has index.db open
// when another process (a hook) meets the damage in it and rebuilds it.
// Each read the server makes next meets the damaged file its connection
// still holds, and must answer from the rebuilt one, as the repairer's
// own handle does, rather than fail once.
func TestReadAfterRepair(t *testing.T) {
	const memories = 30
	tests := []struct {
		name   string
		tables []string // overwritten: what the read reads; of history.db when led by its name
		read   func(ctx context.Context, db *DB, ids []int64, keys []Key) (int, error)
	}{
		{"Docs", []string{"memories"}, func(ctx context.Context, db *DB, ids []int64, _ []Key) (int, error) {
			docs, err := db.Docs(ctx, ids)
			return len(docs), err
		}},
		{"Heads", []string{"memories"}, func(ctx context.Context, db *DB, ids []int64, _ []Key) (int, error) {
			docs, err := db.Heads(ctx, ids)
			return len(docs), err
		}},
		{"Links", []string{"links", "memories_name"}, func(ctx context.Context, db *DB, ids []int64, _ []Key) (int, error) {
			links, err := db.Links(ctx, ids)
			return len(links), err
		}},
		{"Lookup", []string{"memories", "sqlite_autoindex_memories_1"}, func(ctx context.Context, db *DB, _ []int64, keys []Key) (int, error) {
			rows, err := db.Lookup(ctx, keys)
			return len(rows), err
		}},
		{"MissingVectors", []string{"vector_gen", "memories"}, func(ctx context.Context, db *DB, _ []int64, _ []Key) (int, error) {
			return db.MissingVectors(ctx, "m")
		}},
		{"Given", []string{HistoryFileName, "injections"}, func(ctx context.Context, db *DB, _ []int64, _ []Key) (int, error) {
			given, err := db.Given(ctx, "s")
			return len(given), err
		}},
		{"Verdicts", []string{HistoryFileName, "verify_state"}, func(ctx context.Context, db *DB, _ []int64, _ []Key) (int, error) {
			vs, err := db.Verdicts(ctx)
			return len(vs), err
		}},
		{"Vectors", []string{"vector_gen", "lengths"}, func(ctx context.Context, db *DB, _ []int64, _ []Key) (int, error) {
			v, err := db.Vectors(ctx, "")
			if err != nil {
				return 0, err
			}
			if v.Has() {
				return 1, nil
			}
			return 0, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path, dir := damagedIndex(t, memories, damageTables(tt.tables))
			server, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer server.Close()
			hook, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer hook.Close()
			if _, err := hook.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
				t.Fatalf("the hook's sync, which rebuilds the index: %v", err)
			}
			keys := make([]Key, memories)
			for i := range keys {
				keys[i] = Key{Source: "project", Name: fmt.Sprintf("m%03d", i)}
			}
			rows, err := hook.Lookup(ctx, keys)
			if err != nil || len(rows) != memories {
				t.Fatalf("Lookup in the rebuilt index = %d rows, %v; want %d", len(rows), err, memories)
			}
			var ids []int64
			for _, id := range rows {
				ids = append(ids, id)
			}
			want, err := tt.read(ctx, hook, ids, keys)
			if err != nil {
				t.Fatalf("%s by the handle that rebuilt it: %v", tt.name, err)
			}
			got, err := tt.read(ctx, server, ids, keys)
			if err != nil || got != want {
				t.Errorf("%s by a handle opened before the rebuild = %d, %v; want %d, no error", tt.name, got, err, want)
			}
			if left := leftBy(t, path, FileName+".rebuild"); len(left) > 0 {
				t.Errorf("the rebuild left %q in the state folder", left)
			}
		})
	}
}

// damageTables overwrites the root pages of tables in index.db, or in
// history.db when the first is its name.
func damageTables(tables []string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		if tables[0] == HistoryFileName {
			overwriteRoots(t, filepath.Join(filepath.Dir(path), HistoryFileName), tables[1:]...)
			return
		}
		overwriteRoots(t, path, tables...)
	}
}

// leftBy returns the names in the folder of path that start with prefix.
func leftBy(t *testing.T, path, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestWriteAfterRebuild: the worker has index.db open when a hook meets
// damage in it and rebuilds it (a new file renamed over the old). What
// the worker writes next (a sync of a new memory, the vectors it
// computes, a recall recorded) must reach the file every other process
// reads, not the old one, which nobody reads: the worker would see its
// vectors and never compute them again, and no one else would have them.
func TestWriteAfterRebuild(t *testing.T) {
	const memories = 30
	words := []string{"memories_fts_data", "df"} // what the hook's search meets
	tests := []struct {
		name   string
		tables []string // overwritten, as in TestReadAfterRepair
		write  func(ctx context.Context, worker *DB, src Source) error
		check  func(ctx context.Context, fresh *DB) error
	}{
		{"EmbedMissing", words, func(ctx context.Context, worker *DB, _ Source) error {
			n, err := worker.EmbedMissing(ctx, &wordEmbedder{}, nil)
			if err == nil && n != memories {
				err = fmt.Errorf("embedded %d, want %d", n, memories)
			}
			return err
		}, func(ctx context.Context, fresh *DB) error {
			if n, err := fresh.MissingVectors(ctx, ""); err != nil || n != 0 {
				return fmt.Errorf("MissingVectors = %d, %v; want 0", n, err)
			}
			return nil
		}},
		{"Sync", words, func(ctx context.Context, worker *DB, src Source) error {
			writeFile(t, src.Dir, "late.md", memFile("late", "Written after the rebuild", "A body about zeppelins."))
			_, err := worker.Sync(ctx, src)
			return err
		}, func(ctx context.Context, fresh *DB) error {
			rows, err := fresh.Lookup(ctx, []Key{{Source: "project", Name: "late"}})
			if err != nil || len(rows) != 1 {
				return fmt.Errorf("Lookup(late) = %v, %v; want its row", rows, err)
			}
			return nil
		}},
		{"RecordInjection, history rebuilt", []string{HistoryFileName, "recall_stats"}, func(ctx context.Context, worker *DB, _ Source) error {
			return worker.RecordInjection(ctx, "s", time.Now(), Key{Source: "project", Name: "m001"})
		}, func(ctx context.Context, fresh *DB) error {
			if given, err := fresh.Given(ctx, "s"); err != nil || len(given) != 1 {
				return fmt.Errorf("Given = %v, %v; want m001", given, err)
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path, dir := damagedIndex(t, memories, damageTables(tt.tables))
			src := Source{Name: "project", Dir: dir}
			worker, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer worker.Close()
			if _, err := worker.MissingVectors(ctx, ""); err != nil { // its connection reads the file
				t.Fatal(err)
			}
			hook, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer hook.Close()
			if _, err := hook.Sync(ctx, src); err != nil {
				t.Fatal(err)
			}
			res, err := hook.Search(ctx, WordQuery{Terms: []string{"postgres"}, Weights: defaultWeights, Limit: 100})
			if err != nil || len(res.Hits) != memories {
				t.Fatalf("the hook's search, which rebuilds the index = %d hits, %v; want %d", len(res.Hits), err, memories)
			}
			if _, err := hook.Top(ctx, 5); err != nil { // reads the recall statistics
				t.Fatal(err)
			}
			if err := tt.write(ctx, worker, src); err != nil {
				t.Fatalf("%s by the worker after the rebuild: %v", tt.name, err)
			}
			fresh, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			if err := tt.check(ctx, fresh); err != nil {
				t.Errorf("after the worker's %s: %v", tt.name, err)
			}
		})
	}
}

// TestWriteAfterDamage: a table a write reads or writes is damaged, in
// index.db or history.db, under the worker's handle (synced, so it knows
// the sources to rebuild from), or a hook's. The write that meets the
// damage repairs the file, as a read does ([TestReadAfterRepair]), and
// is made again in the new one: the vectors the worker computes, the
// injections, recalls and sizes a hook records, a verify's verdicts and
// its cache, the worker's prune of the history. Before, each failed
// with "database disk image is malformed".
func TestWriteAfterDamage(t *testing.T) {
	const memories = 30
	key := Key{Source: "project", Name: "m001"}
	tests := []struct {
		name   string
		tables []string // overwritten, as in TestReadAfterRepair
		write  func(ctx context.Context, db *DB) error
		check  func(ctx context.Context, fresh *DB) error
	}{
		{"EmbedMissing, vectors damaged", []string{"vectors"}, embedAll, noneMissing},
		{"EmbedMissing, vector model damaged", []string{"vector_gen"}, embedAll, noneMissing},
		{"Record, injections damaged", []string{HistoryFileName, "injections"}, deliver(key), delivered(key)},
		{"Record, recall statistics damaged", []string{HistoryFileName, "recall_stats"}, deliver(key), delivered(key)},
		{"Record, delivery sizes damaged", []string{HistoryFileName, "deliveries"}, deliver(key), delivered(key)},
		{"SetVerdicts", []string{HistoryFileName, "verify_state"}, func(ctx context.Context, db *DB) error {
			return db.SetVerdicts(ctx, time.Now(), Verdict{Key: key, State: "suspect", Reasons: []string{"a.go changed"}})
		}, func(ctx context.Context, fresh *DB) error {
			if vs, err := fresh.Verdicts(ctx); err != nil || vs[key].State != "suspect" {
				return fmt.Errorf("Verdicts = %v, %v; want m001 suspect", vs, err)
			}
			return nil
		}},
		{"PruneHistory", []string{HistoryFileName, "injections"}, func(ctx context.Context, db *DB) error {
			_, err := db.PruneHistory(ctx, time.Now())
			return err
		}, func(context.Context, *DB) error { return nil }},
		{"HashCache", []string{"file_hashes"}, func(ctx context.Context, db *DB) error {
			_, err := db.HashCache(ctx)
			return err
		}, func(context.Context, *DB) error { return nil }},
		{"HashCache.Save", []string{"file_hashes"}, func(ctx context.Context, db *DB) error {
			c, err := db.HashCache(ctx)
			if err != nil {
				return err
			}
			c.PutHash("a.go", 10, 20, "h")
			c.PutIdent("Alpha", "head", true)
			return c.Save(ctx)
		}, func(ctx context.Context, fresh *DB) error {
			c, err := fresh.HashCache(ctx)
			if err != nil {
				return err
			}
			if _, ok := c.Hash("a.go", 10, 20); !ok {
				return fmt.Errorf("the hash saved is not in the cache")
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path, dir := damagedIndex(t, memories, damageTables(tt.tables))
			db, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
				t.Fatal(err)
			}
			if err := tt.write(ctx, db); err != nil {
				t.Fatalf("%s on a damaged index: %v, want it repaired and the write made", tt.name, err)
			}
			fresh, err := Open(ctx, path, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer fresh.Close()
			if err := tt.check(ctx, fresh); err != nil {
				t.Errorf("after %s: %v", tt.name, err)
			}
		})
	}
}

func embedAll(ctx context.Context, db *DB) error {
	n, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil)
	if err == nil && n != 30 {
		err = fmt.Errorf("embedded %d, want 30", n)
	}
	return err
}

func noneMissing(ctx context.Context, fresh *DB) error {
	if n, err := fresh.MissingVectors(ctx, ""); err != nil || n != 0 {
		return fmt.Errorf("MissingVectors = %d, %v; want 0", n, err)
	}
	return nil
}

// deliver records what a session start gives: key whole, m002 as a line,
// both recalled, and the size.
func deliver(key Key) func(ctx context.Context, db *DB) error {
	return func(ctx context.Context, db *DB) error {
		line := Key{Source: key.Source, Name: "m002"}
		return db.Record(ctx, time.Now(), Delivery{Session: "s", Event: EventSessionStart, Chars: 900,
			Injected: []Key{key}, Listed: []Key{line}, Recalled: []Key{key, line}})
	}
}

// delivered checks that [deliver]'s delivery is in the history.
func delivered(key Key) func(ctx context.Context, fresh *DB) error {
	return func(ctx context.Context, fresh *DB) error {
		given, err := fresh.Given(ctx, "s")
		if err != nil || len(given) != 2 || !given[key].Whole {
			return fmt.Errorf("Given = %v, %v; want m001 whole and m002", given, err)
		}
		if c, err := fresh.Costs(ctx); err != nil || c.Chars[EventSessionStart] != 900 {
			return fmt.Errorf("Costs = %+v, %v; want 900 characters at session start", c, err)
		}
		top, err := fresh.Top(ctx, 2)
		if err != nil || len(top) != 2 {
			return fmt.Errorf("Top = %v, %v; want the two recalled", top, err)
		}
		return nil
	}
}

// TestCutWAL: a handle (the MCP server's) has index.db open, with what it
// synced still in the WAL, when the WAL is cut short in the middle of a
// frame (a full disk, a crash of the machine, a copy of the state folder
// taken mid-write). The shared memory the handle keeps says the frames
// are there; a read of one ends early (SQLITE_IOERR_SHORT_READ). That
// is a damaged file like any other: the next process (a hook) rebuilds
// the index as it opens it, and the server answers from the rebuilt one,
// rather than every process failing with "disk I/O error" for as long
// as the server runs.
func TestCutWAL(t *testing.T) {
	const memories = 90
	ctx := context.Background()
	dir := t.TempDir()
	for i := range memories {
		name := fmt.Sprintf("m%03d", i)
		writeFile(t, dir, name+".md", memFile(name, fmt.Sprintf("Service %d uses the postgres driver", i), strings.Repeat("A body with some words. ", 40)))
	}
	path := filepath.Join(t.TempDir(), FileName)
	server, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	src := Source{Name: "project", Dir: dir}
	if _, err := server.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	const header, frameHeader = 32, 24 // a WAL's header; a frame's, before its page
	if err := os.Truncate(path+"-wal", header+frameHeader+100); err != nil {
		t.Fatal(err)
	}
	search := func(db *DB) (int, error) {
		res, err := db.Search(ctx, WordQuery{Terms: []string{"postgres"}, Weights: defaultWeights, Limit: 100})
		if err != nil {
			return 0, err
		}
		return len(res.Hits), nil
	}
	hook, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatalf("a hook opening the index with its WAL cut: %v", err)
	}
	defer hook.Close()
	if _, err := hook.Sync(ctx, src); err != nil {
		t.Fatalf("the hook's sync: %v", err)
	}
	if n, err := search(hook); err != nil || n != memories {
		t.Errorf("the hook's search = %d hits, %v; want %d", n, err, memories)
	}
	if n, err := search(server); err != nil || n != memories {
		t.Errorf("the server's search after the hook's repair = %d hits, %v; want %d", n, err, memories)
	}
}
