package index

import (
	"context"
	"database/sql/driver"
	"fmt"

	"modernc.org/sqlite"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// idleConns is how many idle connections a DB keeps: database/sql's default.
const idleConns = 2

// moved reports whether err says that a write was refused because index.db
// or history.db was deleted or renamed since its connection opened it
// ([sqlitefile.IsMoved]). When so, the idle connections (the one that
// failed among them) are closed, so that the write, tried again, opens the
// files now at the paths ([ensureSchemas] gives them their schemas). A
// sync tried again so finds an empty index, and fills it from every file.
func (db *DB) moved(err error) bool {
	if !sqlitefile.IsMoved(err) {
		return false
	}
	db.log.Warn("index.db was deleted while in use: continuing with a new one", "path", db.path)
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(idleConns)
	return true
}

// ensureSchemas gives a new connection whose index.db holds nothing the
// index's schema, and its history.db the history's, before any statement
// runs on it. Open needs it for a new state folder; a DB in use needs it
// when its files were deleted under it (the state folder removed while a
// command runs): the connections it has keep the files they opened, but
// SQLite opens the next one (a statement prepared while a transaction
// holds the only connection) on a new, empty file, where the search
// failed with "no such table". With the schema there, that statement is
// prepared and then runs on the transaction's connection, against the
// index the search began with; the next command finds an empty index and
// fills it from the files, as after any deleted index.db.
//
// Two processes may create the schema at once: the check is repeated under
// the write lock, so one creates it.
func ensureSchemas(c sqlite.ExecQuerierContext, history string) error {
	ctx := context.Background()
	if err := ensureIndexSchema(ctx, c); err != nil {
		return err
	}
	n, err := countObjects(ctx, c, "history")
	if err == nil && n == 0 {
		err = applyHistory(ctx, history)
	}
	if err != nil {
		return &historyError{err}
	}
	return nil
}

// ensureIndexSchema creates this version's schema in an index.db that
// holds no object at all. A file that holds any is left to [DB.migrate].
func ensureIndexSchema(ctx context.Context, c sqlite.ExecQuerierContext) (err error) {
	if n, err := countObjects(ctx, c, "main"); err != nil || n > 0 {
		return err
	}
	if _, err := c.ExecContext(ctx, "BEGIN IMMEDIATE", nil); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			c.ExecContext(ctx, "ROLLBACK", nil)
		}
	}()
	if n, err := countObjects(ctx, c, "main"); err != nil || n > 0 {
		if err == nil {
			_, err = c.ExecContext(ctx, "COMMIT", nil) // another process created it
		}
		return err
	}
	if _, err := c.ExecContext(ctx, schema, nil); err != nil {
		return fmt.Errorf("create schema: %w", err)
	}
	if _, err := c.ExecContext(ctx, fmt.Sprintf("PRAGMA main.user_version = %d", SchemaVersion), nil); err != nil {
		return fmt.Errorf("set version: %w", err)
	}
	_, err = c.ExecContext(ctx, "COMMIT", nil)
	return err
}

// countObjects returns how many tables, indexes, views and triggers the
// schema called schema ("main", "history") of c holds.
func countObjects(ctx context.Context, c sqlite.ExecQuerierContext, schema string) (int64, error) {
	rows, err := c.QueryContext(ctx, "SELECT count(*) FROM "+schema+".sqlite_schema", nil)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	v := make([]driver.Value, 1)
	if err := rows.Next(v); err != nil {
		return 0, err
	}
	n, _ := v[0].(int64)
	return n, nil
}
