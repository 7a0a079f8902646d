package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// writer collects the rows of a sync and writes them in batches: one
// statement per row cost more than the rows themselves.
type writer struct {
	// Queued by add, written and cleared by writeRows.
	rows    [][]any // memories rows, id first, in memoryColumns order
	links   [][]any // memory_id, target
	anchors [][]any // memory_id, path, dir
	edited  []int64 // rows of edited files, whose old row must go first

	touches [][3]int64     // size, stamp, id of files whose content is as stored
	written []int64        // rows whose search entries must be (re)written
	stale   []int64        // rows whose old search entries must go first
	removed []int64        // rows of files that are gone
	names   []string       // of the rows written and removed: their linkers' context changes
	df      map[string]int // changes to the df table
	nextID  int64
}

// rowsPerWrite is how many rows [writer.add] queues before they are written.
const rowsPerWrite = 500

const memoryColumns = "id, source, name, size, mtime, hash, path, ntok, code, type, confidence, " +
	"status, superseded_by, created, updated, description, tags, files, body"

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{df: make(map[string]int)}
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) + 1 FROM memories").Scan(&w.nextID); err != nil {
		return nil, err
	}
	return w, nil
}

// A record is what the index keeps of a parsed memory file: the columns
// of its row, its links and its anchored paths. Parsed memories are turned
// into records at once, so that a cold build does not hold every file's
// YAML tree.
type record struct {
	row   []any // from ntok on, in memoryColumns order
	links []string
	files []string
}

// stems returns the distinct stems of the memory's own text, for the df
// table. They are counted at once rather than kept: a cold build of
// 100,000 memories held 6 million of them.
func (r *record) stems(name string, m *memory.Memory, cache map[string]string) []string {
	return stemSet(cache, name, m.Description, m.Body, r.row[9].(string), r.row[10].(string))
}

func newRecord(name string, mtime int64, m *memory.Memory) *record {
	files := make([]string, 0, len(m.Anchors.Files))
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	tags, paths := strings.Join(m.Tags, " "), strings.Join(files, "\n")
	ntok := countWords(name) + countWords(m.Description) + countWords(m.Body) + countWords(tags) + countWords(paths)
	return &record{
		row: []any{ntok, codeText(name, paths, m.Description, m.Body, tags), string(m.Type), m.Confidence, string(status(m)),
			m.SupersededBy, formatTime(m.Created), formatTime(firstTime(m.Updated, m.Created, time.Unix(0, mtime))),
			m.Description, tags, paths, m.Body},
		links: m.Links(),
		files: files,
	}
}

// add queues one changed file: only its stat when its content is as
// stored, else the whole row (keeping its id), its links and its anchors.
func (w *writer) add(c change) {
	if c.rec == nil {
		w.touches = append(w.touches, [3]int64{c.size, c.stamp, c.old.id})
		return
	}
	id := w.nextID
	if c.old != nil {
		id = c.old.id
		w.stale = append(w.stale, id)
		w.edited = append(w.edited, id)
	} else {
		w.nextID++
	}
	w.rows = append(w.rows, append([]any{id, c.source, c.name, c.size, c.stamp, c.hash, c.path}, c.rec.row...))
	w.written = append(w.written, id)
	w.names = append(w.names, c.name)
	for _, l := range c.rec.links {
		w.links = append(w.links, []any{id, l})
	}
	for _, f := range c.rec.files {
		w.anchors = append(w.anchors, []any{id, f, path.Dir(f)})
	}
}

// writeRows writes the rows queued so far: the old rows of edited files
// out (their links and anchors go by cascade, their stems out of df), the
// new rows, links and anchors in.
func (w *writer) writeRows(ctx context.Context, tx *sql.Tx) error {
	if err := w.forget(ctx, tx, w.edited); err != nil {
		return err
	}
	if len(w.edited) > 0 {
		if _, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE id IN ("+idList(w.edited)+")"); err != nil {
			return fmt.Errorf("delete edited rows: %w", err)
		}
	}
	for _, b := range []struct {
		insert string
		rows   [][]any
	}{
		{"INSERT OR FAIL INTO memories (" + memoryColumns + ")", w.rows},
		{"INSERT OR IGNORE INTO links (memory_id, target)", w.links},
		{"INSERT OR IGNORE INTO anchors (memory_id, path, dir)", w.anchors},
	} {
		if err := insertBatches(ctx, tx, b.insert, b.rows, ""); err != nil {
			return err
		}
	}
	if err := w.writeCode(ctx, tx); err != nil {
		return err
	}
	w.rows, w.links, w.anchors, w.edited = w.rows[:0], w.links[:0], w.anchors[:0], w.edited[:0]
	return nil
}

// writeCode writes the trigram entries of the rows queued, the old ones
// of edited rows out first. They hold no context, so unlike the word
// entries they need not wait for the rows they link to.
func (w *writer) writeCode(ctx context.Context, tx *sql.Tx) error {
	if len(w.edited) > 0 {
		if _, err := tx.ExecContext(ctx, "DELETE FROM memories_tri WHERE rowid IN ("+idList(w.edited)+")"); err != nil {
			return fmt.Errorf("unindex code: %w", err)
		}
	}
	if len(w.rows) == 0 {
		return nil
	}
	ids := make([]int64, len(w.rows))
	for i, r := range w.rows {
		ids[i] = r[0].(int64)
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO memories_tri (rowid, code) SELECT id, code FROM memories WHERE id IN ("+idList(ids)+")")
	if err != nil {
		return fmt.Errorf("index code: %w", err)
	}
	return nil
}

// write writes what is left once every file was added: the rows still
// queued, stat updates, the rows of removed files out, the df changes,
// and last the search entries, of the rows written and of the rows that
// link to a name written or removed (their context changed).
func (w *writer) write(ctx context.Context, tx *sql.Tx) error {
	if err := w.writeRows(ctx, tx); err != nil {
		return err
	}
	for _, t := range w.touches {
		if _, err := tx.ExecContext(ctx, "UPDATE memories SET size = ?, mtime = ? WHERE id = ?", t[0], t[1], t[2]); err != nil {
			return fmt.Errorf("update stat: %w", err)
		}
	}
	if err := w.forget(ctx, tx, w.removed); err != nil {
		return err
	}
	if err := w.remove(ctx, tx); err != nil {
		return err
	}
	if err := w.writeDF(ctx, tx); err != nil {
		return err
	}
	linkers, err := w.linkers(ctx, tx)
	if err != nil {
		return err
	}
	return w.flush(ctx, tx, linkers)
}

// remove deletes the rows of removed files and keeps their names, whose
// linkers' context changes.
func (w *writer) remove(ctx context.Context, tx *sql.Tx) error {
	if len(w.removed) == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "DELETE FROM memories WHERE id IN ("+idList(w.removed)+") RETURNING name")
	if err != nil {
		return fmt.Errorf("delete memories: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		w.names = append(w.names, name)
	}
	return rows.Err()
}

// linkers returns the stored rows, other than those written, that link to
// a name written or removed: the context of their search entries changed.
func (w *writer) linkers(ctx context.Context, tx *sql.Tx) ([]int64, error) {
	ids, err := idsOf(ctx, tx, "SELECT DISTINCT memory_id FROM links WHERE target IN (SELECT value FROM json_each(?))", w.names)
	if err != nil {
		return nil, fmt.Errorf("find linkers: %w", err)
	}
	written := make(map[int64]bool, len(w.written))
	for _, id := range w.written {
		written[id] = true
	}
	return slices.DeleteFunc(ids, func(id int64) bool { return written[id] }), nil
}

// idsOf runs a query taking a JSON array of strings and returning ids.
func idsOf(ctx context.Context, tx *sql.Tx, query string, args []string) ([]int64, error) {
	if len(args) == 0 {
		return nil, nil
	}
	list, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, query, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// insertBatches inserts rows (all of one width) with one statement per
// batch of at most 500 values; suffix ends each statement (ON CONFLICT ...).
func insertBatches(ctx context.Context, tx *sql.Tx, insert string, rows [][]any, suffix string) error {
	if len(rows) == 0 {
		return nil
	}
	width := len(rows[0])
	per := max(500/width, 1)
	one := "(" + placeholders(width) + ")"
	for start := 0; start < len(rows); start += per {
		batch := rows[start:min(start+per, len(rows))]
		args := make([]any, 0, len(batch)*width)
		for _, r := range batch {
			args = append(args, r...)
		}
		query := insert + " VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", len(batch)), ", ") + suffix
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("%s: %w", insert, err)
		}
	}
	return nil
}

// flush writes the search entries, after every other statement of the
// transaction: the entries of edited, removed and re-contexted rows out,
// those of written and re-contexted rows in. An entry's context column
// holds the descriptions of the memories its row links to. Each statement that writes a
// search table, or that runs after one was written, makes FTS5 flush its
// pending terms to a new segment; one statement per table and step keeps a
// cold build from turning into thousands of tiny segments and their merges.
func (w *writer) flush(ctx context.Context, tx *sql.Tx, recontexted []int64) error {
	for _, t := range []struct {
		table, cols, values string
		gone, in            []int64
	}{
		{"memories_fts", "name, description, body, tags, files, context", "name, description, body, tags, files, " + linkedDescriptions,
			slices.Concat(w.stale, w.removed, recontexted), slices.Concat(w.written, recontexted)},
		{"memories_tri", "code", "code", w.removed, nil}, // the rest by writeCode
	} {
		if gone := t.gone; len(gone) > 0 {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t.table+" WHERE rowid IN ("+idList(gone)+")"); err != nil {
				return fmt.Errorf("unindex: %w", err)
			}
		}
		if len(t.in) == 0 {
			continue
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO "+t.table+" (rowid, "+t.cols+") "+
			"SELECT id, "+t.values+" FROM memories m WHERE id IN ("+idList(t.in)+")")
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// linkedDescriptions is the context of the row m: the descriptions of the
// memories it links to, in either vault, itself left out.
const linkedDescriptions = `coalesce((SELECT group_concat(t.description, ' ') FROM links l
	JOIN memories t ON t.name = l.target WHERE l.memory_id = m.id AND t.name != m.name), '')`

// countWords counts words as FTS5's unicode61 tokenizer cuts them: runs
// of letters, digits and combining marks.
func countWords(s string) int {
	n, in := 0, false
	for _, r := range s {
		w := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

func status(m *memory.Memory) memory.Status {
	if m.Status == "" {
		return memory.StatusActive
	}
	return m.Status
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}

// formatTime writes t as RFC 3339 UTC, the one format of every time column;
// the zero time is the empty string.
func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// parseTime reads a time column; the empty string is the zero time.
func parseTime(s string) time.Time {
	t, _ := time.Parse(time.RFC3339Nano, s)
	return t
}
