package index

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// TestWriteSpanningRebuild: a hook's write transaction is open when
// another process's rebuild of a damaged index.db renames the new file
// over the old ([DB.replace]'s last step: the new file is built first,
// and its build waits for the history's write lock, so this is the one
// moment a transaction can span). What the transaction wrote to index.db
// goes to the old file and is lost: here a vector, which the worker
// computes again. What it wrote to history.db, which the rebuild leaves
// alone, is kept: the injections and recall statistics, which nothing
// could rebuild.
func TestWriteSpanningRebuild(t *testing.T) {
	const memories = 30
	ctx := context.Background()
	path, dir := damagedIndex(t, memories, func(*testing.T, string) {})
	src := Source{Name: "project", Dir: dir}
	hook, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hook.Close()
	if _, err := hook.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	// The rebuild's new index, made whole beside the old one.
	tmp := filepath.Join(t.TempDir(), FileName)
	nb, err := Open(ctx, tmp, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Sync(ctx, src); err != nil {
		t.Fatal(err)
	}
	if err := nb.Close(); err != nil {
		t.Fatal(err)
	}

	key := Key{Source: "project", Name: "m001"}
	tx, err := hook.sql.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	d := Delivery{Session: "s", Injected: []Key{key}, Recalled: []Key{key}}
	if err := recordInjections(ctx, tx, d, formatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO history.recall_stats (source, name, times, last) VALUES (?, ?, 1, ?)`,
		key.Source, key.Name, formatTime(time.Now())); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO vector_gen (k, gen, model) VALUES (1, 1, 'words')`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO vectors (memory_id, data)
		SELECT id, ? FROM memories WHERE source = ? AND name = ?`, encodeVector([]float32{1, 0}), key.Source, key.Name); err != nil {
		t.Fatal(err)
	}
	if err := sqlitefile.Replace(path, tmp); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatalf("the commit after the rebuild: %v", err)
	}

	fresh, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if given, err := fresh.Given(ctx, "s"); err != nil || !given[key].Whole {
		t.Errorf("Given = %v, %v; want the injection of m001, written across the rebuild", given, err)
	}
	if top, err := fresh.Top(ctx, 1); err != nil || len(top) != 1 || top[0].Name != key.Name {
		t.Errorf("Top = %v, %v; want m001, recalled across the rebuild", top, err)
	}
	if n, err := fresh.MissingVectors(ctx, "words"); err != nil || n != memories {
		t.Errorf("MissingVectors = %d, %v; want %d: the vector went to the old file", n, err, memories)
	}
	if n, err := fresh.EmbedMissing(ctx, &wordEmbedder{}, nil); err != nil || n != memories {
		t.Errorf("EmbedMissing = %d, %v; want every vector computed again", n, err)
	}
}
