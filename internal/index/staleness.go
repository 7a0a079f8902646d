package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A HashCache is the staleness check's cache of file hashes and
// identifier lookups, kept in memory while a verification runs and written
// back in one transaction by [HashCache.Save].
type HashCache struct {
	db     *DB
	hashes map[string]cachedHash
	idents map[[2]string]bool
	heads  map[string]bool // of the lookups put
	dirty  []func(tx *sql.Tx) error
}

type cachedHash struct {
	size, stamp int64
	hash        string
}

// HashCache loads the cache.
func (db *DB) HashCache(ctx context.Context) (*HashCache, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (*HashCache, error) { return db.hashCache(ctx) })
}

func (db *DB) hashCache(ctx context.Context) (*HashCache, error) {
	c := &HashCache{db: db, hashes: map[string]cachedHash{}, idents: map[[2]string]bool{}, heads: map[string]bool{}}
	rows, err := db.sql.QueryContext(ctx, `SELECT path, size, mtime, hash FROM file_hashes`)
	if err != nil {
		return nil, fmt.Errorf("index: hash cache: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var h cachedHash
		if err := rows.Scan(&p, &h.size, &h.stamp, &h.hash); err != nil {
			return nil, fmt.Errorf("index: hash cache: %w", err)
		}
		c.hashes[p] = h
	}
	return c, rows.Err()
}

// Hash returns the cached hash of a file if its size and stamp match. The
// stamp is the caller's (package staleness: a hash of the file's
// modification time, change time and identity); the table's column is
// named mtime, which it was.
func (c *HashCache) Hash(path string, size, stamp int64) (string, bool) {
	h, ok := c.hashes[path]
	if !ok || h.size != size || h.stamp != stamp {
		return "", false
	}
	return h.hash, true
}

// PutHash remembers a file's hash, at its size and stamp.
func (c *HashCache) PutHash(path string, size, stamp int64, hash string) {
	c.hashes[path] = cachedHash{size, stamp, hash}
	c.dirty = append(c.dirty, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT OR REPLACE INTO file_hashes (path, size, mtime, hash) VALUES (?, ?, ?, ?)`, path, size, stamp, hash)
		return err
	})
}

// Ident returns whether an identifier was found at a commit, if known.
func (c *HashCache) Ident(ident, head string) (found, ok bool) {
	if f, ok := c.idents[[2]string{ident, head}]; ok {
		return f, true
	}
	err := c.db.sql.QueryRow(`SELECT found FROM ident_cache WHERE ident = ? AND head = ?`, ident, head).Scan(&found)
	if err != nil {
		return false, false
	}
	c.idents[[2]string{ident, head}] = found
	return found, true
}

// PutIdent remembers an identifier lookup at a commit.
func (c *HashCache) PutIdent(ident, head string, found bool) {
	c.idents[[2]string{ident, head}] = found
	c.heads[head] = true
	c.dirty = append(c.dirty, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT OR REPLACE INTO ident_cache (ident, head, found) VALUES (?, ?, ?)`, ident, head, found)
		return err
	})
}

// Save writes what was learned since the cache was loaded. The lookups
// of other commits than those put since go: a lookup is good for one
// commit only, and kept for every commit verified the table would grow
// with the repository's history.
func (c *HashCache) Save(ctx context.Context) error {
	if len(c.dirty) == 0 {
		return nil
	}
	return sqlitefile.Retry(ctx, c.db.healed, func() error { return c.save(ctx) })
}

func (c *HashCache) save(ctx context.Context) error {
	tx, err := c.db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: save hash cache: %w", err)
	}
	defer tx.Rollback()
	for _, f := range c.dirty {
		if err := f(tx); err != nil {
			return fmt.Errorf("index: save hash cache: %w", err)
		}
	}
	if len(c.heads) > 0 {
		heads, err := json.Marshal(slices.Collect(maps.Keys(c.heads)))
		if err != nil {
			return fmt.Errorf("index: save hash cache: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM ident_cache WHERE head NOT IN (SELECT value FROM json_each(?))`, string(heads)); err != nil {
			return fmt.Errorf("index: save hash cache: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("index: save hash cache: %w", err)
	}
	c.dirty = nil
	return nil
}

// A Verdict is the stored result of verifying one memory.
type Verdict struct {
	Key
	State   string
	Reasons []string
	Since   time.Time // when it entered this state
	Checked time.Time
}

// SetVerdicts stores verification results, keeping the time a memory
// entered its state when the state did not change.
func (db *DB) SetVerdicts(ctx context.Context, now time.Time, vs ...Verdict) error {
	return sqlitefile.Retry(ctx, db.healed, func() error { return db.setVerdicts(ctx, now, vs) })
}

func (db *DB) setVerdicts(ctx context.Context, now time.Time, vs []Verdict) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("index: verdicts: %w", err)
	}
	defer tx.Rollback()
	ts := now.UTC().Format(time.RFC3339)
	for _, v := range vs {
		if _, err := tx.ExecContext(ctx, `INSERT INTO history.verify_state AS v (source, name, state, reasons, since, checked)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (source, name) DO UPDATE SET reasons = excluded.reasons, checked = excluded.checked,
				since = CASE WHEN v.state = excluded.state THEN v.since ELSE excluded.since END,
				state = excluded.state`,
			v.Source, v.Name, v.State, strings.Join(v.Reasons, "\n"), ts, ts); err != nil {
			return fmt.Errorf("index: verdicts: %w", err)
		}
	}
	return tx.Commit()
}

// Verdicts returns the stored verification results by memory.
func (db *DB) Verdicts(ctx context.Context) (map[Key]Verdict, error) {
	return db.verdicts(ctx, `SELECT source, name, state, reasons, since, checked FROM history.verify_state`)
}

// Suspects returns the stored verdicts of the suspect memories only, read
// through their own index: after a verify, every memory has a verdict, and
// reading all of them on every prompt cost a hook 60 ms at 10,000.
func (db *DB) Suspects(ctx context.Context) (map[Key]Verdict, error) {
	return db.verdicts(ctx, `SELECT source, name, state, reasons, since, checked FROM history.verify_state
		INDEXED BY verify_state_suspect WHERE state = 'suspect'`)
}

// Flagged returns the stored verdicts of the memories that are suspect or
// whose anchored files changed with every name in place ("changed"):
// what a hook tells the agent beside a memory. Like [DB.Suspects], it
// reads through an index of its own.
func (db *DB) Flagged(ctx context.Context) (map[Key]Verdict, error) {
	return db.verdicts(ctx, `SELECT source, name, state, reasons, since, checked FROM history.verify_state
		INDEXED BY verify_state_flagged WHERE state IN ('suspect', 'changed')`)
}

func (db *DB) verdicts(ctx context.Context, query string) (map[Key]Verdict, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (map[Key]Verdict, error) { return db.readVerdicts(ctx, query) })
}

func (db *DB) readVerdicts(ctx context.Context, query string) (map[Key]Verdict, error) {
	rows, err := db.sql.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("index: verdicts: %w", err)
	}
	defer rows.Close()
	out := map[Key]Verdict{}
	for rows.Next() {
		var v Verdict
		var reasons, since, checked string
		if err := rows.Scan(&v.Source, &v.Name, &v.State, &reasons, &since, &checked); err != nil {
			return nil, fmt.Errorf("index: verdicts: %w", err)
		}
		if reasons != "" {
			v.Reasons = strings.Split(reasons, "\n")
		}
		v.Since, v.Checked = parseTime(since), parseTime(checked)
		out[v.Key] = v
	}
	if err := rows.Err(); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}
