package index

import (
	"context"
	"fmt"
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
func (db *DB) Rebuild(ctx context.Context, sources ...Source) (SyncStats, error) {
	if err := db.empty(ctx); err != nil {
		return SyncStats{}, fmt.Errorf("index: rebuild: %w", err)
	}
	return db.Sync(ctx, sources...)
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
	if err := writeLengths(ctx, tx, gen+1); err != nil {
		return err
	}
	return tx.Commit()
}
