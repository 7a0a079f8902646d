package index

import (
	"context"
	"fmt"
)

// legacyHistory copies each history table that index.db held up to
// schema version 11 into history.db. Each statement can run twice (when
// a process stopped between the copy and the rebuild) without counting
// anything twice: a row already in the history keeps the larger count,
// the later time, the later verdict.
var legacyHistory = []struct{ table, copy string }{
	{"recall_stats", `INSERT INTO history.recall_stats (source, name, times, last)
		SELECT source, name, times, last FROM main.recall_stats WHERE true
		ON CONFLICT (source, name) DO UPDATE SET times = max(times, excluded.times), last = max(last, excluded.last)`},
	{"injections", `INSERT INTO history.injections (session, source, name, at)
		SELECT session, source, name, at FROM main.injections WHERE true
		ON CONFLICT (session, source, name) DO UPDATE SET at = min(at, excluded.at)`},
	{"verify_state", `INSERT INTO history.verify_state AS v (source, name, state, reasons, since, checked)
		SELECT source, name, state, reasons, since, checked FROM main.verify_state WHERE true
		ON CONFLICT (source, name) DO UPDATE SET state = excluded.state, reasons = excluded.reasons,
			since = excluded.since, checked = excluded.checked
		WHERE excluded.checked > v.checked`},
}

// moveHistory copies the history tables an index.db of an older version
// holds into history.db, in a transaction of its own that commits before
// the index is dropped: SQLite commits the files of one transaction one
// after the other, index.db first, so in one transaction a crash between
// the two could drop the index's copy and lose the history's.
func (db *DB) moveHistory(ctx context.Context) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	moved := 0
	for _, h := range legacyHistory {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM main.sqlite_schema WHERE type = 'table' AND name = ?", h.table).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			continue
		}
		res, err := tx.ExecContext(ctx, h.copy)
		if err != nil {
			return fmt.Errorf("move %s to the history: %w", h.table, err)
		}
		rows, _ := res.RowsAffected()
		moved += int(rows)
	}
	if moved > 0 {
		db.log.Info("index.db: history moved to history.db", "path", db.history, "rows", moved)
	}
	return tx.Commit()
}
