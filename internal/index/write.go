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
	rows    [][]any    // memories rows, id first, in memoryColumns order
	targets [][]string // the links of each row
	links   [][]any    // memory_id, target
	anchors [][]any    // memory_id, path, dir
	touches [][3]int64 // size, mtime, id of files whose content is as stored

	written []int64 // rows whose search entries must be (re)written
	stale   []int64 // rows whose old row and search entries must go first
	removed []int64 // rows of files that are gone
	names   []string
	df      map[string]int // changes to the df table
	nextID  int64
}

const memoryColumns = "id, source, name, size, mtime, hash, path, ntok, code, type, confidence, " +
	"status, superseded_by, created, updated, description, tags, files, body, context"

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
		w.touches = append(w.touches, [3]int64{c.size, c.mtime, c.old.id})
		return
	}
	id := w.nextID
	if c.old != nil {
		id = c.old.id
		w.stale = append(w.stale, id)
	} else {
		w.nextID++
	}
	row := append([]any{id, c.source, c.name, c.size, c.mtime, c.hash, c.path}, c.rec.row...)
	w.rows = append(w.rows, append(row, "")) // the context, filled in by contexts
	w.targets = append(w.targets, c.rec.links)
	w.written = append(w.written, id)
	w.names = append(w.names, c.name)
	for _, l := range c.rec.links {
		w.links = append(w.links, []any{id, l})
	}
	for _, f := range c.rec.files {
		w.anchors = append(w.anchors, []any{id, f, path.Dir(f)})
	}
}

// write writes the queued rows: stat updates, the old rows of edited
// and removed files out (their links and anchors go by cascade), the new
// rows in, the context of every memory linking to a changed one, and last
// the search entries.
func (w *writer) write(ctx context.Context, tx *sql.Tx) error {
	for _, t := range w.touches {
		if _, err := tx.ExecContext(ctx, "UPDATE memories SET size = ?, mtime = ? WHERE id = ?", t[0], t[1], t[2]); err != nil {
			return fmt.Errorf("update stat: %w", err)
		}
	}
	if err := w.forget(ctx, tx, slices.Concat(w.stale, w.removed)); err != nil {
		return err
	}
	if len(w.stale) > 0 {
		if _, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE id IN ("+idList(w.stale)+")"); err != nil {
			return fmt.Errorf("delete edited rows: %w", err)
		}
	}
	if err := w.remove(ctx, tx); err != nil {
		return err
	}
	if err := w.contexts(ctx, tx); err != nil {
		return err
	}
	for _, b := range []struct {
		insert string
		rows   [][]any
	}{
		{"INSERT INTO memories (" + memoryColumns + ")", w.rows},
		{"INSERT OR IGNORE INTO links (memory_id, target)", w.links},
		{"INSERT OR IGNORE INTO anchors (memory_id, path, dir)", w.anchors},
	} {
		if err := insertBatches(ctx, tx, b.insert, b.rows, ""); err != nil {
			return err
		}
	}
	if err := w.writeDF(ctx, tx); err != nil {
		return err
	}
	affected, err := w.updateContext(ctx, tx)
	if err != nil {
		return err
	}
	return w.flush(ctx, tx, affected)
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

// contexts fills in the context column of the rows to write (the
// descriptions of the memories each links to, in link order), from the
// rows being written and the rows that stay.
func (w *writer) contexts(ctx context.Context, tx *sql.Tx) error {
	const descCol, nameCol = 15, 2 // in memoryColumns
	desc := make(map[string][]string)
	for _, r := range w.rows {
		name := r[nameCol].(string)
		desc[name] = append(desc[name], r[descCol].(string))
	}
	var outside []string
	for _, ts := range w.targets {
		for _, t := range ts {
			if _, ok := desc[t]; !ok {
				desc[t] = nil
				outside = append(outside, t)
			}
		}
	}
	if err := describe(ctx, tx, outside, desc); err != nil {
		return fmt.Errorf("read linked descriptions: %w", err)
	}
	for i, r := range w.rows {
		var parts []string
		for _, t := range w.targets[i] {
			if t != r[nameCol].(string) {
				parts = append(parts, desc[t]...)
			}
		}
		r[len(r)-1] = strings.Join(parts, " ")
	}
	return nil
}

// describe adds the descriptions of the stored memories called names.
func describe(ctx context.Context, tx *sql.Tx, names []string, desc map[string][]string) error {
	if len(names) == 0 {
		return nil
	}
	list, err := json.Marshal(names)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT name, description FROM memories WHERE name IN (SELECT value FROM json_each(?))", string(list))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, d string
		if err := rows.Scan(&name, &d); err != nil {
			return err
		}
		desc[name] = append(desc[name], d)
	}
	return rows.Err()
}

// updateContext recomputes the context column of the stored rows that
// link to a name written or removed, and returns them: their search
// entries must be rewritten too. (The rows written got theirs from contexts.)
func (w *writer) updateContext(ctx context.Context, tx *sql.Tx) ([]int64, error) {
	linkers, err := idsOf(ctx, tx, "SELECT DISTINCT memory_id FROM links WHERE target IN (SELECT value FROM json_each(?))", w.names)
	if err != nil {
		return nil, fmt.Errorf("find linkers: %w", err)
	}
	written := make(map[int64]bool, len(w.written))
	for _, id := range w.written {
		written[id] = true
	}
	var others []int64
	for _, id := range linkers {
		if !written[id] {
			others = append(others, id)
		}
	}
	if len(others) == 0 {
		return nil, nil
	}
	_, err = tx.ExecContext(ctx, `UPDATE memories SET context = coalesce((
		SELECT group_concat(t.description, ' ') FROM links l JOIN memories t ON t.name = l.target
		WHERE l.memory_id = memories.id AND t.id != memories.id), '')
		WHERE id IN (`+idList(others)+`)`)
	if err != nil {
		return nil, fmt.Errorf("update context: %w", err)
	}
	return others, nil
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
// those of written and re-contexted rows in. Each statement that writes a
// search table, or that runs after one was written, makes FTS5 flush its
// pending terms to a new segment; one statement per table and step keeps a
// cold build from turning into thousands of tiny segments and their merges.
func (w *writer) flush(ctx context.Context, tx *sql.Tx, recontexted []int64) error {
	out := slices.Concat(w.stale, w.removed, recontexted)
	for _, t := range []struct {
		table, cols string
		in          []int64
	}{
		{"memories_fts", "name, description, body, tags, files, context", slices.Concat(w.written, recontexted)},
		{"memories_tri", "code", w.written},
	} {
		gone := out
		if t.table == "memories_tri" {
			gone = slices.Concat(w.stale, w.removed)
		}
		if len(gone) > 0 {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t.table+" WHERE rowid IN ("+idList(gone)+")"); err != nil {
				return fmt.Errorf("unindex: %w", err)
			}
		}
		if len(t.in) == 0 {
			continue
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO "+t.table+" (rowid, "+t.cols+") "+
			"SELECT id, "+t.cols+" FROM memories WHERE id IN ("+idList(t.in)+")")
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

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
