package migration

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// Names returns the migration files in the folder dir of files (*.sql),
// in the order they apply. A file is recorded by this name, its folder
// included: queue.db lists "migration/001_jobs.sql".
func Names(files fs.FS, dir string) ([]string, error) {
	names, err := fs.Glob(files, path.Join(dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// A Querier runs a query: a *sql.DB, *sql.Conn or *sql.Tx.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Applied reports whether table, the migrations table (schema-qualified,
// "history.migrations", to read an attached database), lists every one
// of names. An error, as from a new file that has no migrations table
// yet, counts as no.
func Applied(ctx context.Context, q Querier, table string, names []string) bool {
	rows, err := q.QueryContext(ctx, "SELECT name FROM "+table)
	if err != nil {
		return false
	}
	defer rows.Close()
	done := make(map[string]bool)
	for rows.Next() {
		var name string
		if rows.Scan(&name) != nil {
			return false
		}
		done[name] = true
	}
	if rows.Err() != nil {
		return false
	}
	for _, name := range names {
		if !done[name] {
			return false
		}
	}
	return true
}

// Apply applies the files in the folder dir of files that db has not
// applied yet, all in one transaction with their records and the
// migrations table itself: another process sees the file with none of
// them or with all. (Committed one by one, with the migrations table
// first, a process that opened a new file in between found it not empty,
// took its schema as made, and met "no such table".) A file that fails
// leaves nothing of the ones applied with it. When all are applied, as at
// nearly every open, it reads one table and writes nothing.
func Apply(ctx context.Context, db *sql.DB, files fs.FS, dir string) error {
	names, err := Names(files, dir)
	if err != nil {
		return err
	}
	if Applied(ctx, db, "migrations", names) {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY)`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, name := range names {
		if err := applyFile(ctx, tx, files, name); err != nil {
			return fmt.Errorf("migrate %s: %w", name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// applyFile applies one file and records its name in tx, unless its name
// is recorded already (another process applied it first).
func applyFile(ctx context.Context, tx *sql.Tx, files fs.FS, name string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	body, err := fs.ReadFile(files, name)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO migrations (name) VALUES (?)`, name)
	return err
}
