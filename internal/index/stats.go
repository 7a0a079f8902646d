package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// RecordRecall counts one recall of each of keys at now.
func (db *DB) RecordRecall(ctx context.Context, now time.Time, keys ...Key) error {
	if len(keys) == 0 {
		return nil
	}
	err := db.inTx(ctx, `INSERT INTO recall_stats (source, name, times, last) VALUES (?, ?, 1, ?)
		ON CONFLICT (source, name) DO UPDATE SET times = times + 1, last = excluded.last`,
		func(stmt *sql.Stmt) error {
			for _, k := range keys {
				if _, err := stmt.ExecContext(ctx, k.Source, k.Name, formatTime(now)); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("index: record recall: %w", err)
	}
	return nil
}

// RecordInjection records that keys were injected into the agent session
// at now. Recording a memory again keeps the first time.
func (db *DB) RecordInjection(ctx context.Context, session string, now time.Time, keys ...Key) error {
	if len(keys) == 0 {
		return nil
	}
	err := db.inTx(ctx, "INSERT OR IGNORE INTO injections (session, source, name, at) VALUES (?, ?, ?, ?)",
		func(stmt *sql.Stmt) error {
			for _, k := range keys {
				if _, err := stmt.ExecContext(ctx, session, k.Source, k.Name, formatTime(now)); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("index: record injection: %w", err)
	}
	return nil
}

// WasInjected reports whether key was injected into the session.
func (db *DB) WasInjected(ctx context.Context, session string, key Key) (bool, error) {
	var one int
	err := db.sql.QueryRowContext(ctx,
		"SELECT 1 FROM injections WHERE session = ? AND source = ? AND name = ?",
		session, key.Source, key.Name).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("index: was injected: %w", err)
	}
	return true, nil
}

// Injected returns every memory injected into the session, with its time.
func (db *DB) Injected(ctx context.Context, session string) (map[Key]time.Time, error) {
	rows, err := db.sql.QueryContext(ctx,
		"SELECT source, name, at FROM injections WHERE session = ?", session)
	if err != nil {
		return nil, fmt.Errorf("index: injected: %w", err)
	}
	defer rows.Close()
	out := make(map[Key]time.Time)
	for rows.Next() {
		var k Key
		var at string
		if err := rows.Scan(&k.Source, &k.Name, &at); err != nil {
			return nil, fmt.Errorf("index: injected: %w", err)
		}
		out[k] = parseTime(at)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: injected: %w", err)
	}
	return out, nil
}

// inTx runs fn with one prepared statement in a write transaction.
func (db *DB) inTx(ctx context.Context, query string, fn func(*sql.Stmt) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, query)
	if err != nil {
		return err
	}
	defer stmt.Close()
	if err := fn(stmt); err != nil {
		return err
	}
	return tx.Commit()
}
