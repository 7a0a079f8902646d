package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A process that recalls again and again (the MCP server: every call)
// can keep every memory's row in memory with [DB.KeepResident]: the
// heads and documents a recall reads then come from memory, and only
// their recall statistics, which change with every recall in any
// process, from the file. At 10,000 memories the rows' SQL was a fifth of
// a recall. What is kept is of one sync generation (see
// [nextGeneration]): a sync writes every row in the transaction that
// moves the generation on, so it holds until that changes. Until the
// rows of the generation now in the file are read (on another goroutine,
// once a search has seen the generation change), reads go to the file
// as they would without it.

// maxResidentBytes bounds what [DB.KeepResident] keeps: a vault whose
// rows' text is larger is read from the file on every call. 10,000
// memories of the benchmark's vault take about 9 MB.
const maxResidentBytes = 256 << 20

// resident is what [DB.KeepResident] keeps.
type resident struct {
	on atomic.Bool // KeepResident was called

	mu      sync.Mutex     // guards following
	gen     int64          // the generation docs are of; 0: none
	docs    map[int64]*Doc // every row, without recall statistics
	loading bool           // a goroutine is reading the rows
	tooBig  int64          // the generation found past maxResidentBytes
}

// KeepResident makes db keep every memory's row in memory from now on,
// for a process that recalls many times; see the comment above
// [maxResidentBytes]. What the calls return does not change.
func (db *DB) KeepResident() { db.res.on.Store(true) }

// residentDocs returns the kept rows of the memories ids (sorted,
// distinct), each without its recall statistics, and true, when what is
// kept is of generation gen. Otherwise it returns false and, when db
// keeps rows, starts reading those of gen.
func (db *DB) residentDocs(gen int64, ids []int64) ([]Doc, bool) {
	r := &db.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gen != gen || r.docs == nil {
		if !r.loading && r.tooBig != gen {
			r.loading = true
			go db.loadResident(gen)
		}
		return nil, false
	}
	docs := make([]Doc, 0, len(ids))
	for _, id := range ids {
		if d := r.docs[id]; d != nil {
			docs = append(docs, *d)
		}
	}
	return docs, true
}

// loadResident reads every row, and keeps them when the file is still at
// generation gen after.
func (db *DB) loadResident(gen int64) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	docs, size, err := db.allDocs(ctx)
	if err == nil && size <= maxResidentBytes {
		var now int64
		if now, err = generation(ctx, db.sql); err == nil && now != gen {
			err = fmt.Errorf("index: resident rows: the index moved to another generation")
		}
	}
	r := &db.res
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loading = false
	switch {
	case err != nil:
		db.log.Debug("resident rows not kept", "err", err)
	case size > maxResidentBytes:
		r.tooBig, r.gen, r.docs = gen, 0, nil
	default:
		r.gen, r.docs = gen, docs
	}
}

// dropResident forgets the kept rows: the file at the index's path changed.
func (db *DB) dropResident() {
	r := &db.res
	r.mu.Lock()
	r.gen, r.docs, r.tooBig = 0, nil, 0
	r.mu.Unlock()
}

// allDocs reads every row, without recall statistics, and the bytes of
// their text.
func (db *DB) allDocs(ctx context.Context) (map[int64]*Doc, int, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT "+docColumns+" FROM memories m")
	if err != nil {
		return nil, 0, fmt.Errorf("index: resident rows: %w", err)
	}
	defer rows.Close()
	docs := make(map[int64]*Doc)
	size := 0
	for rows.Next() {
		d := &Doc{}
		if err := scanDoc(rows, d); err != nil {
			return nil, 0, fmt.Errorf("index: resident rows: %w", err)
		}
		docs[d.ID] = d
		size += len(d.Name) + len(d.Path) + len(d.Description) + len(d.Body) + len(d.SupersededBy) + 200
		if size > maxResidentBytes {
			return nil, size, nil
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("index: resident rows: %w", err)
	}
	return docs, size, nil
}

// docColumns are what scanDoc reads, from memories m: every field of a
// Doc but its recall statistics.
const docColumns = `m.id, m.source, m.name, m.path, m.description, m.type, m.confidence,
	m.status, m.superseded_by, m.created, m.updated, m.tags, m.files, m.body`

// scanDoc reads the docColumns into d, then the destinations in more.
func scanDoc(rows interface{ Scan(...any) error }, d *Doc, more ...any) error {
	var typ, status, created, updated, tags, files string
	dest := append([]any{&d.ID, &d.Source, &d.Name, &d.Path, &d.Description, &typ,
		&d.Confidence, &status, &d.SupersededBy, &created, &updated, &tags, &files, &d.Body}, more...)
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	d.Type, d.Status = memory.Type(typ), memory.Status(status)
	d.Created, d.Updated = parseTime(created), parseTime(updated)
	d.Tags, d.Files = strings.Fields(tags), splitLines(files)
	return nil
}

// keptDocs returns the documents of ids from what db keeps, with their
// recall statistics read from the file, and true; or false when db keeps
// none of the generation the file is at. A head (see [DB.Heads]) has only
// the fields ranking reads. gen is the generation when the caller read it
// in tx, else 0 and tx nil: then one statement reads it with the
// statistics, for a statement's fixed cost (a lock of the file, taken and
// let go; the check that it is still the file at the path) is most of
// what a small one costs.
func (db *DB) keptDocs(ctx context.Context, tx *sql.Tx, gen int64, ids []int64, head bool) ([]Doc, bool, error) {
	if !db.res.on.Load() || len(ids) == 0 {
		return nil, false, nil
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	query := recallStatsQuery
	if gen == 0 {
		query = generationStatsQuery
	}
	rows, err := db.queryIDs(ctx, tx, query, ids)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	stats := make(map[int64]stat)
	for rows.Next() {
		var id int64
		var s stat
		if err := rows.Scan(&id, &s.times, &s.last); err != nil {
			return nil, false, err
		}
		if id == generationRow {
			gen = int64(s.times)
			continue
		}
		stats[id] = s
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	if gen == 0 {
		return nil, false, nil // never synced
	}
	docs, ok := db.residentDocs(gen, ids)
	if !ok {
		return nil, false, nil
	}
	for i := range docs {
		d := &docs[i]
		if s, ok := stats[d.ID]; ok {
			d.Recalls, d.LastRecalled = int(s.times), parseTime(s.last)
		}
		if head {
			d.Path, d.Description, d.Tags, d.Files, d.Body = "", "", nil, nil, ""
		}
	}
	return docs, true, nil
}

// stat is a memory's recall statistics.
type stat struct {
	times int64
	last  string
}

// recallStatsQuery reads the recall statistics of the memories, among
// those whose rows follow (see [DB.queryIDs]), that have any; and
// generationStatsQuery the same after a row holding the generation in
// place of times, whose row is generationRow.
const (
	recallStatsQuery = `SELECT m.id, r.times, r.last FROM memories m
		JOIN history.recall_stats r ON r.source = m.source AND r.name = m.name WHERE m.id IN `
	generationStatsQuery = `SELECT -1, gen, '' FROM lengths WHERE k = 1 UNION ALL ` + recallStatsQuery
	generationRow        = -1
)
