package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A Delivery is what mnemo gave an agent: the memories injected into a
// session, and the memories recalled (counted in the recall statistics).
type Delivery struct {
	Session  string // the agent session; empty records no injection
	Injected []Key
	Recalled []Key
}

// Record records a delivery at now in one transaction. Recording an
// injection again keeps the first time.
func (db *DB) Record(ctx context.Context, now time.Time, d Delivery) error {
	if d.Session == "" {
		d.Injected = nil
	}
	if len(d.Injected) == 0 && len(d.Recalled) == 0 {
		return nil
	}
	at := formatTime(now)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: record: %w", err)
	}
	defer tx.Rollback()
	for _, k := range d.Injected {
		if _, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO history.injections (session, source, name, at) VALUES (?, ?, ?, ?)",
			d.Session, k.Source, k.Name, at); err != nil {
			return fmt.Errorf("index: record injection: %w", err)
		}
	}
	for _, k := range d.Recalled {
		if _, err := tx.ExecContext(ctx, `INSERT INTO history.recall_stats (source, name, times, last) VALUES (?, ?, 1, ?)
			ON CONFLICT (source, name) DO UPDATE SET times = times + 1, last = excluded.last`,
			k.Source, k.Name, at); err != nil {
			return fmt.Errorf("index: record recall: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: record: %w", err)
	}
	return nil
}

// RecordRecall counts one recall of each of keys at now.
func (db *DB) RecordRecall(ctx context.Context, now time.Time, keys ...Key) error {
	return db.Record(ctx, now, Delivery{Recalled: keys})
}

// RecordInjection records that keys were injected into the agent session
// at now. Recording a memory again keeps the first time.
func (db *DB) RecordInjection(ctx context.Context, session string, now time.Time, keys ...Key) error {
	return db.Record(ctx, now, Delivery{Session: session, Injected: keys})
}

// WasInjected reports whether key was injected into the session.
func (db *DB) WasInjected(ctx context.Context, session string, key Key) (bool, error) {
	var one int
	err := db.sql.QueryRowContext(ctx,
		"SELECT 1 FROM history.injections WHERE session = ? AND source = ? AND name = ?",
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
		"SELECT source, name, at FROM history.injections WHERE session = ?", session)
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
