package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A Delivery is what mnemo gave an agent: the memories injected into a
// session whole, those given only as an index line, how much context that
// was, and the memories recalled (counted in the recall statistics).
type Delivery struct {
	Session  string // the agent session; empty records no injection
	Event    string // the hook that gave it: EventSessionStart, EventPrompt
	Chars    int    // characters of context given; 0 records no size
	Injected []Key
	Listed   []Key
	Recalled []Key
}

// The hooks a [Delivery] comes from.
const (
	EventSessionStart = "session-start"
	EventPrompt       = "user-prompt-submit"
)

// The kinds of injection: a memory given whole, or as its index line.
const (
	kindBody = "body"
	kindLine = "line"
)

// Record records a delivery at now in one transaction. Recording an
// injection again keeps the first time; a memory listed first and given
// whole later counts as given whole.
//
// A record that meets damage in history.db repairs it and is made again
// ([DB.healed]): the history set aside, it starts anew with this record.
func (db *DB) Record(ctx context.Context, now time.Time, d Delivery) error {
	return sqlitefile.Retry(ctx, db.healed, func() error { return db.record(ctx, now, d) })
}

func (db *DB) record(ctx context.Context, now time.Time, d Delivery) error {
	if d.Session == "" {
		d.Injected, d.Listed, d.Chars = nil, nil, 0
	}
	if len(d.Injected) == 0 && len(d.Listed) == 0 && len(d.Recalled) == 0 && d.Chars == 0 {
		return nil
	}
	at := formatTime(now)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: record: %w", err)
	}
	defer tx.Rollback()
	if err := recordInjections(ctx, tx, d, at); err != nil {
		return err
	}
	if d.Chars > 0 {
		if _, err := tx.ExecContext(ctx, "INSERT INTO history.deliveries (session, event, at, chars) VALUES (?, ?, ?, ?)",
			d.Session, d.Event, at, d.Chars); err != nil {
			return fmt.Errorf("index: record delivery: %w", err)
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

// recordInjections records what a delivery gave its session in one
// statement: a session start lists dozens of lines, and a statement per
// row cost it a millisecond.
func recordInjections(ctx context.Context, tx *sql.Tx, d Delivery, at string) error {
	n := len(d.Injected) + len(d.Listed)
	if n == 0 {
		return nil
	}
	args := make([]any, 0, 5*n)
	for _, kind := range []struct {
		name string
		keys []Key
	}{{kindBody, d.Injected}, {kindLine, d.Listed}} {
		for _, k := range kind.keys {
			args = append(args, d.Session, k.Source, k.Name, at, kind.name)
		}
	}
	query := "INSERT INTO history.injections (session, source, name, at, kind) VALUES " +
		strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", n), ", ") +
		" ON CONFLICT (session, source, name) DO UPDATE SET kind = excluded.kind WHERE excluded.kind = 'body'"
	if _, err := tx.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("index: record injection: %w", err)
	}
	return nil
}

// RecordRecall counts one recall of each of keys at now.
func (db *DB) RecordRecall(ctx context.Context, now time.Time, keys ...Key) error {
	return db.Record(ctx, now, Delivery{Recalled: keys})
}

// RecordInjection records that keys were injected whole into the agent
// session at now. Recording a memory again keeps the first time.
func (db *DB) RecordInjection(ctx context.Context, session string, now time.Time, keys ...Key) error {
	return db.Record(ctx, now, Delivery{Session: session, Injected: keys})
}

// WasInjected reports whether key was injected into the session.
func (db *DB) WasInjected(ctx context.Context, session string, key Key) (bool, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (bool, error) { return db.wasInjected(ctx, session, key) })
}

func (db *DB) wasInjected(ctx context.Context, session string, key Key) (bool, error) {
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

// Injected returns every memory injected whole into the session, with its time.
func (db *DB) Injected(ctx context.Context, session string) (map[Key]time.Time, error) {
	given, err := db.Given(ctx, session)
	out := make(map[Key]time.Time, len(given))
	for k, g := range given {
		if g.Whole {
			out[k] = g.At
		}
	}
	return out, err
}

// A Given is how a memory was given to a session: when first, and whether
// whole or only as its index line.
type Given struct {
	At    time.Time
	Whole bool
}

// Given returns every memory given to the session, whole or as a line.
func (db *DB) Given(ctx context.Context, session string) (map[Key]Given, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (map[Key]Given, error) { return db.given(ctx, session) })
}

func (db *DB) given(ctx context.Context, session string) (map[Key]Given, error) {
	rows, err := db.sql.QueryContext(ctx,
		"SELECT source, name, at, kind FROM history.injections WHERE session = ?", session)
	if err != nil {
		return nil, fmt.Errorf("index: injected: %w", err)
	}
	defer rows.Close()
	out := make(map[Key]Given)
	for rows.Next() {
		var k Key
		var at, kind string
		if err := rows.Scan(&k.Source, &k.Name, &at, &kind); err != nil {
			return nil, fmt.Errorf("index: injected: %w", err)
		}
		out[k] = Given{At: parseTime(at), Whole: kind == kindBody}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: injected: %w", err)
	}
	return out, nil
}

// A Cost is what the hooks gave the sessions on record, in characters.
type Cost struct {
	Sessions int            // sessions given anything
	Chars    map[string]int // by hook ([Delivery.Event]), over all of them
}

// Costs sums the recorded deliveries by hook.
func (db *DB) Costs(ctx context.Context) (Cost, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (Cost, error) { return db.costs(ctx) })
}

func (db *DB) costs(ctx context.Context) (Cost, error) {
	c := Cost{Chars: map[string]int{}}
	if err := db.sql.QueryRowContext(ctx, "SELECT count(DISTINCT session) FROM history.deliveries").Scan(&c.Sessions); err != nil {
		return c, fmt.Errorf("index: costs: %w", err)
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT event, sum(chars) FROM history.deliveries GROUP BY event")
	if err != nil {
		return c, fmt.Errorf("index: costs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var event string
		var n int
		if err := rows.Scan(&event, &n); err != nil {
			return c, fmt.Errorf("index: costs: %w", err)
		}
		c.Chars[event] = n
	}
	if err := rows.Err(); err != nil {
		return c, fmt.Errorf("index: costs: %w", err)
	}
	return c, nil
}
