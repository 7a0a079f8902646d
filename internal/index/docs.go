package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A Key names one memory across vaults: its source and its name.
type Key struct {
	Source string // the [Source] name: "project", "user"
	Name   string
}

func (k Key) String() string { return k.Source + ":" + k.Name }

// A Doc is an indexed memory with its recall statistics.
type Doc struct {
	ID int64 // the row; stable until the file is removed or the index rebuilt
	Key
	Path         string
	Description  string
	Type         memory.Type
	Confidence   float64
	Status       memory.Status
	SupersededBy string
	Created      time.Time // zero when the file has none
	Updated      time.Time // updated, else created, else the file's mtime
	Tags         []string
	Files        []string // anchored paths
	Body         string
	Recalls      int       // times recalled
	LastRecalled time.Time // zero when never
	Stems        []string  // of a word search's hit: the query's stems it holds

	whole bool // every field is read, though it came as a head (see Whole)
}

// Whole reports whether every field of d was read, though [DB.Heads] (or
// a word search's hit) promised only a head's: a process that keeps its
// rows resident ([DB.KeepResident]) reads them whole at no cost, and a
// caller need not read them again with [DB.Docs].
func (d Doc) Whole() bool { return d.whole }

// Docs returns the memories with the given ids, in no particular order;
// ids not in the index are left out.
func (db *DB) Docs(ctx context.Context, ids []int64) ([]Doc, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Doc, error) {
		docs, kept, err := db.keptDocs(ctx, nil, nil, ids)
		if kept || err != nil {
			return docs, wrapErr("docs", err)
		}
		return db.docs(ctx, ids)
	})
}

// wrapErr says which read of the index failed; nil stays nil.
func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("index: %s: %w", what, err)
}

// Heads returns what ranking needs of the memories with the given ids: the
// key, type, confidence, status, superseded_by, created, updated and recall
// statistics. The other fields of each Doc are empty, unless it is
// [Doc.Whole].
func (db *DB) Heads(ctx context.Context, ids []int64) ([]Doc, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Doc, error) { return db.heads(ctx, ids) })
}

func (db *DB) heads(ctx context.Context, ids []int64) ([]Doc, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if docs, kept, err := db.keptDocs(ctx, nil, nil, ids); kept || err != nil {
		return docs, wrapErr("heads", err)
	}
	rows, err := db.queryIDs(ctx, nil, "SELECT "+headColumns+" FROM memories m"+headJoin+" WHERE m.id IN ", ids)
	if err != nil {
		return nil, fmt.Errorf("index: heads: %w", err)
	}
	defer rows.Close()
	docs := make([]Doc, 0, len(ids))
	for rows.Next() {
		var d Doc
		if err := scanHead(rows, &d); err != nil {
			return nil, fmt.Errorf("index: heads: %w", err)
		}
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: heads: %w", err)
	}
	return docs, nil
}

// headColumns and headJoin select what scanHead reads, from memories m.
const (
	headColumns = `m.id, m.source, m.name, m.type, m.confidence, m.status, m.superseded_by,
		m.created, m.updated, coalesce(r.times, 0), coalesce(r.last, '')`
	headJoin = " LEFT JOIN history.recall_stats r ON r.source = m.source AND r.name = m.name"
)

// scanHead reads the head columns into d, after the destinations in first.
func scanHead(rows *sql.Rows, d *Doc, first ...any) error {
	var typ, status, created, updated, last string
	dest := append(first, &d.ID, &d.Source, &d.Name, &typ, &d.Confidence, &status,
		&d.SupersededBy, &created, &updated, &d.Recalls, &last)
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	d.Type, d.Status = memory.Type(typ), memory.Status(status)
	d.Created, d.Updated, d.LastRecalled = parseTime(created), parseTime(updated), parseTime(last)
	return nil
}

func (db *DB) docs(ctx context.Context, ids []int64) ([]Doc, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := db.queryIDs(ctx, nil, "SELECT "+docColumns+", coalesce(r.times, 0), coalesce(r.last, '') FROM memories m"+
		headJoin+" WHERE m.id IN ", ids)
	if err != nil {
		return nil, fmt.Errorf("index: docs: %w", err)
	}
	defer rows.Close()
	var docs []Doc
	for rows.Next() {
		var d Doc
		var last string
		if err := scanDoc(rows, &d, &d.Recalls, &last); err != nil {
			return nil, fmt.Errorf("index: docs: %w", err)
		}
		d.LastRecalled, d.whole = parseTime(last), true
		docs = append(docs, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: docs: %w", err)
	}
	return docs, nil
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// A Link is a [[link]] between two indexed memories.
type Link struct {
	From, To int64
}

// Links returns the links from and to the memories with the given ids,
// resolved to rows. A link names a memory; when both vaults hold that
// name, it resolves to both. Links to memories not in the index are left out.
func (db *DB) Links(ctx context.Context, ids []int64) ([]Link, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Link, error) { return db.links(ctx, ids) })
}

func (db *DB) links(ctx context.Context, ids []int64) ([]Link, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("index: links: %w", err)
	}
	stmt, err := db.stmt(ctx, `
		SELECT l.memory_id, t.id FROM links l JOIN memories t ON t.name = l.target
		WHERE l.memory_id IN (SELECT value FROM json_each(?1))
		UNION
		SELECT l.memory_id, t.id FROM memories t JOIN links l ON l.target = t.name
		WHERE t.id IN (SELECT value FROM json_each(?1))`)
	if err != nil {
		return nil, fmt.Errorf("index: links: %w", err)
	}
	rows, err := stmt.QueryContext(ctx, string(list))
	if err != nil {
		return nil, fmt.Errorf("index: links: %w", err)
	}
	pairs, err := scanPairs(rows)
	if err != nil {
		return nil, fmt.Errorf("index: links: %w", err)
	}
	links := make([]Link, 0, len(pairs))
	for _, p := range pairs {
		if p[0] != p[1] {
			links = append(links, Link{From: p[0], To: p[1]})
		}
	}
	return links, nil
}

// Lookup returns the rows of the given keys; keys not in the index are left out.
func (db *DB) Lookup(ctx context.Context, keys []Key) (map[Key]int64, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (map[Key]int64, error) { return db.lookup(ctx, keys) })
}

func (db *DB) lookup(ctx context.Context, keys []Key) (map[Key]int64, error) {
	out := make(map[Key]int64, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("index: lookup: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "SELECT id FROM memories WHERE source = ? AND name = ?")
	if err != nil {
		return nil, fmt.Errorf("index: lookup: %w", err)
	}
	defer stmt.Close()
	for _, k := range keys {
		var id int64
		err := stmt.QueryRowContext(ctx, k.Source, k.Name).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("index: lookup %s: %w", k, err)
		}
		out[k] = id
	}
	return out, nil
}

// Count returns how many memories the index holds.
func (db *DB) Count(ctx context.Context) (int, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (int, error) { return db.count(ctx) })
}

func (db *DB) count(ctx context.Context) (int, error) {
	var n int
	// The lengths row counts them at every sync that writes: reading it
	// costs one row where count(*) reads an index of every row.
	if err := db.sql.QueryRowContext(ctx, "SELECT coalesce((SELECT docs FROM lengths WHERE k = 1), 0)").Scan(&n); err != nil {
		return 0, fmt.Errorf("index: count: %w", err)
	}
	return n, nil
}
