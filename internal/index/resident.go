package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A process that recalls again and again (the MCP server: every call)
// can keep every memory's row and recall statistics in memory with
// [DB.KeepResident]: the heads and documents a recall reads then come
// from memory. The rows are of one sync generation (see
// [nextGeneration]): a sync writes every row in the transaction that
// moves the generation on, so they hold until that changes. The
// statistics, which every recall in any process changes, are of one count
// of their changes (history.db's stats_gen, which triggers move on), read
// with the generation. Until the rows of the generation now in the file
// are read (on another goroutine, once a read has seen it change), reads
// go to the file as they would without it.

// maxResidentBytes bounds what [DB.KeepResident] keeps, counted as the
// rows' text and 200 bytes a row: a vault whose rows are larger is read
// from the file on every call.
const maxResidentBytes = 256 << 20

// resident is what [DB.KeepResident] keeps.
type resident struct {
	on atomic.Bool // KeepResident was called

	mu      sync.Mutex     // guards following
	gen     int64          // the generation docs are of
	docs    map[int64]*Doc // every row, without recall statistics; nil: none kept
	loading bool           // a goroutine is reading the rows
	// skip is set when the rows of generation skipGen are not kept: past
	// maxResidentBytes, or never synced (0). They are not read again
	// until another generation is seen.
	skip    bool
	skipGen int64

	statsGen int64        // the count of changes to the statistics they are of; 0: none kept
	stats    map[Key]stat // every memory's recall statistics
}

// KeepResident makes db keep every memory's row in memory from now on,
// for a process that recalls many times; see the comment above
// [maxResidentBytes]. What the calls return does not change.
func (db *DB) KeepResident() { db.res.on.Store(true) }

// kept returns the kept rows of the memories ids (sorted, distinct),
// each without its recall statistics, the generation they are of, and
// whether any are kept.
func (db *DB) kept(ids []int64) ([]Doc, int64, bool) {
	r := &db.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.docs == nil {
		return nil, 0, false
	}
	docs := make([]Doc, 0, len(ids))
	for _, id := range ids {
		if d := r.docs[id]; d != nil {
			docs = append(docs, *d)
		}
	}
	return docs, r.gen, true
}

// reload starts reading the rows again, on another goroutine, unless
// that is under way or the file's generation, gen (0 when not known), is
// one whose rows are not kept.
func (db *DB) reload(gen int64) {
	r := &db.res
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.loading || (r.skip && (gen == 0 || gen == r.skipGen)) {
		return
	}
	r.loading = true
	go db.loadResident()
}

// loadResident reads every row, and the generation they are of, and
// keeps them.
func (db *DB) loadResident() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	docs, gen, err := db.allDocs(ctx)
	r := &db.res
	r.mu.Lock()
	defer r.mu.Unlock()
	r.loading = false
	switch {
	case err != nil:
		db.log.Debug("resident rows not kept", "err", err)
	case docs == nil || gen == 0:
		r.skip, r.skipGen, r.docs = true, gen, nil
	default:
		r.skip, r.gen, r.docs = false, gen, docs
	}
}

// dropResident forgets the kept rows: the file at the index's path changed.
func (db *DB) dropResident() {
	r := &db.res
	r.mu.Lock()
	r.gen, r.docs, r.skip, r.skipGen = 0, nil, false, 0
	r.stats, r.statsGen = nil, 0
	r.mu.Unlock()
}

// allDocs reads every row, without recall statistics, and the
// generation they are of, in one read transaction; no rows when their
// text is past maxResidentBytes.
func (db *DB) allDocs(ctx context.Context) (map[int64]*Doc, int64, error) {
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("index: resident rows: %w", err)
	}
	defer tx.Rollback()
	gen, err := generation(ctx, tx)
	if err != nil {
		return nil, 0, fmt.Errorf("index: resident rows: %w", err)
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+docColumns+" FROM memories m")
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
			return nil, gen, nil
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("index: resident rows: %w", err)
	}
	return docs, gen, nil
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

// generations are what keptDocs checks what is kept against: the
// generation of the sync that wrote the rows, and the count of changes to
// the recall statistics (history.db's stats_gen, which triggers move on).
type generations struct {
	rows, stats int64
}

// keptDocs returns the documents of ids from what db keeps, whole, with
// their recall statistics, and true; or false when db keeps none of the
// generation the file is at, and then starts reading them. The
// statistics change with every recall in any process: they are kept with
// the count of their changes and read again, all of them, when it moved.
// gen is what the caller read in tx, else nil and tx nil: then one
// statement reads it, for a statement's fixed cost (a lock of each file,
// taken and let go; the check that it is still the file at the path) is
// most of what a small one costs.
func (db *DB) keptDocs(ctx context.Context, tx *sql.Tx, gen *generations, ids []int64) ([]Doc, bool, error) {
	if !db.res.on.Load() || len(ids) == 0 {
		return nil, false, nil
	}
	if gen == nil {
		gen = &generations{}
		stmt, err := db.stmt(ctx, "SELECT gen, "+statsGenQuery+" FROM lengths WHERE k = 1")
		if err != nil {
			return nil, false, err
		}
		err = stmt.QueryRowContext(ctx).Scan(&gen.rows, &gen.stats)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, false, err
		}
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	docs, at, ok := db.kept(slices.Compact(ids))
	if !ok || at != gen.rows {
		db.reload(gen.rows)
		return nil, false, nil
	}
	stats, err := db.keptStats(ctx, tx, gen.stats)
	if err != nil {
		return nil, false, err
	}
	for i := range docs {
		d := &docs[i]
		if s, ok := stats[d.Key]; ok {
			d.Recalls, d.LastRecalled = int(s.times), parseTime(s.last)
		}
		d.whole = true
	}
	return docs, true, nil
}

// statsGenQuery is an expression for the count of changes to the recall
// statistics; 0 when history.db has none.
const statsGenQuery = "coalesce((SELECT n FROM history.stats_gen WHERE k = 1), 0)"

// stat is a memory's recall statistics.
type stat struct {
	times int64
	last  string
}

// keptStats returns every memory's recall statistics at count gen of
// their changes: those kept when they are of gen, else read from the
// file (in tx when not nil) and kept.
func (db *DB) keptStats(ctx context.Context, tx *sql.Tx, gen int64) (map[Key]stat, error) {
	r := &db.res
	r.mu.Lock()
	stats, at := r.stats, r.statsGen
	r.mu.Unlock()
	if stats != nil && at == gen && gen != 0 {
		return stats, nil
	}
	var q interface {
		QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	} = db.sql
	if tx != nil {
		q = tx
	}
	rows, err := q.QueryContext(ctx, "SELECT source, name, times, last FROM history.recall_stats")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	stats = make(map[Key]stat)
	for rows.Next() {
		var k Key
		var s stat
		if err := rows.Scan(&k.Source, &k.Name, &s.times, &s.last); err != nil {
			return nil, err
		}
		stats[k] = s
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if gen != 0 {
		r.mu.Lock()
		r.stats, r.statsGen = stats, gen
		r.mu.Unlock()
	}
	return stats, nil
}
