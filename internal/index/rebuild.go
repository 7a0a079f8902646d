package index

import (
	"context"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// Rebuild empties the index and fills it again from every file of the
// folders of sources, as if index.db had been deleted: a file edited in
// place with its size and modification time kept, which [DB.Sync] never
// reads again, is read, and rows a damaged sync left behind are gone. The
// history (recall statistics, injection records, verdicts) lives in
// history.db and is kept. Rows of sources not named are dropped too: pass
// every source the index mirrors.
//
// The emptying is one transaction and the filling another ([DB.Sync]): a
// search in between finds nothing, as after a deleted index.db. Another
// process's sync that read the index before the emptying starts over.
//
// The sentence vectors of memories whose text is unchanged are kept: they
// cost the model about 86 ms a memory, and a vector depends only on the
// text (its content hash).
//
// A damaged index.db is rebuilt from the files first ([DB.healed]), then
// the rebuild runs again on the new file.
func (db *DB) Rebuild(ctx context.Context, sources ...Source) (SyncStats, error) {
	db.mirrors(sources)
	return sqlitefile.Retried(ctx, db.healed, func() (SyncStats, error) { return db.rebuild(ctx, sources) })
}

func (db *DB) rebuild(ctx context.Context, sources []Source) (SyncStats, error) {
	kept, err := db.keptVectors(ctx)
	if err != nil {
		return SyncStats{}, fmt.Errorf("index: rebuild: %w", err)
	}
	model, err := db.VectorModel(ctx)
	if err != nil {
		return SyncStats{}, fmt.Errorf("index: rebuild: %w", err)
	}
	if err := db.empty(ctx); err != nil {
		return SyncStats{}, fmt.Errorf("index: rebuild: %w", err)
	}
	st, err := db.Sync(ctx, sources...)
	if err != nil {
		return st, err
	}
	if err := db.restoreVectors(ctx, model, kept); err != nil {
		return st, fmt.Errorf("index: rebuild: %w", err)
	}
	return st, nil
}

// A keptVector is a memory's vector with the content it was computed from.
type keptVector struct {
	source, name, hash string
	data               []byte
}

// keptVectors reads every stored vector with its memory's content hash.
func (db *DB) keptVectors(ctx context.Context) ([]keptVector, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT m.source, m.name, m.hash, v.data
		FROM vectors v JOIN memories m ON m.id = v.memory_id`)
	if err != nil {
		return nil, fmt.Errorf("read the vectors: %w", err)
	}
	defer rows.Close()
	var out []keptVector
	for rows.Next() {
		var k keptVector
		if err := rows.Scan(&k.source, &k.name, &k.hash, &k.data); err != nil {
			return nil, fmt.Errorf("read the vectors: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// restoreVectors stores each kept vector, of model, again for the memory
// of that name whose content is still the one it was computed from;
// none when another process embedded with another model meanwhile.
func (db *DB) restoreVectors(ctx context.Context, model string, kept []keptVector) error {
	if len(kept) == 0 {
		return nil
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if now, err := db.storedModel(ctx, tx); err != nil || now != nil && *now != model {
		return err
	}
	for _, k := range kept {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vectors (memory_id, data)
			SELECT id, ? FROM memories WHERE source = ? AND name = ? AND hash = ?`,
			k.data, k.source, k.name, k.hash); err != nil {
			return fmt.Errorf("keep the vectors: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO vector_gen (k, gen, model) VALUES (1, 1, ?)
		ON CONFLICT (k) DO UPDATE SET gen = gen + 1, model = excluded.model`, model); err != nil {
		return fmt.Errorf("keep the vectors: %w", err)
	}
	return tx.Commit()
}

// empty drops and recreates index.db's schema, moving the generation on so
// that a sync that diffed against the old rows sees that it raced.
func (db *DB) empty(ctx context.Context) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	gen, err := generation(ctx, tx)
	if err != nil {
		return err
	}
	if _, err := recreate(ctx, tx); err != nil {
		return err
	}
	if err := writeLengths(ctx, tx, nextGeneration(gen)); err != nil {
		return err
	}
	return tx.Commit()
}
