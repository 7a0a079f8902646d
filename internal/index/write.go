package index

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"strings"
	"time"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// writer collects the rows of a sync and writes them in batches: one
// statement per row cost more than the rows themselves.
type writer struct {
	rows    [][]any    // memories rows, id first, in memoryColumns order
	links   [][]any    // memory_id, target
	anchors [][]any    // memory_id, path, dir
	touches [][3]int64 // size, mtime, id of files whose content is as stored

	written []int64 // rows whose search entries must be (re)written
	stale   []int64 // rows whose old row and search entries must go first
	nextID  int64
}

const memoryColumns = "id, source, name, size, mtime, hash, ntok, spaceless, type, confidence, status, " +
	"superseded_by, created, updated, path, description, tags, files, body"

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{}
	if err := tx.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) + 1 FROM memories").Scan(&w.nextID); err != nil {
		return nil, err
	}
	return w, nil
}

// add queues one changed file: only its stat when its content is as
// stored, else the whole row (keeping its id), its links and its anchors.
func (w *writer) add(c change) {
	if c.m == nil {
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
	m := c.m
	files := make([]string, 0, len(m.Anchors.Files))
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	tags, paths := strings.Join(m.Tags, " "), strings.Join(files, "\n")
	ntok := countWords(c.name) + countWords(m.Description) + countWords(m.Body) + countWords(tags) + countWords(paths)
	w.rows = append(w.rows, []any{id, c.source, c.name, c.size, c.mtime, c.hash, ntok, spaceless(m.Body),
		string(m.Type), m.Confidence, string(status(m)), m.SupersededBy, formatTime(m.Created),
		formatTime(firstTime(m.Updated, m.Created, time.Unix(0, c.mtime))), c.path,
		m.Description, tags, paths, m.Body})
	w.written = append(w.written, id)
	for _, l := range m.Links() {
		w.links = append(w.links, []any{id, l})
	}
	for _, f := range files {
		w.anchors = append(w.anchors, []any{id, f, path.Dir(f)})
	}
}

// write writes the queued rows: stat updates, the old rows of edited
// files out (their links and anchors go by cascade), the new rows in, and
// last the search entries.
func (w *writer) write(ctx context.Context, tx *sql.Tx) error {
	for _, t := range w.touches {
		if _, err := tx.ExecContext(ctx, "UPDATE memories SET size = ?, mtime = ? WHERE id = ?", t[0], t[1], t[2]); err != nil {
			return fmt.Errorf("update stat: %w", err)
		}
	}
	if len(w.stale) > 0 {
		if _, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE id IN ("+idList(w.stale)+")"); err != nil {
			return fmt.Errorf("delete edited rows: %w", err)
		}
	}
	for _, b := range []struct {
		insert string
		rows   [][]any
	}{
		{"INSERT INTO memories (" + memoryColumns + ")", w.rows},
		{"INSERT OR IGNORE INTO links (memory_id, target)", w.links},
		{"INSERT OR IGNORE INTO anchors (memory_id, path, dir)", w.anchors},
	} {
		if err := insertBatches(ctx, tx, b.insert, b.rows); err != nil {
			return err
		}
	}
	return w.flush(ctx, tx)
}

// insertBatches inserts rows (all of one width) with one statement per
// batch of at most 500 values.
func insertBatches(ctx context.Context, tx *sql.Tx, insert string, rows [][]any) error {
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
		query := insert + " VALUES " + strings.TrimSuffix(strings.Repeat(one+", ", len(batch)), ", ")
		if _, err := tx.ExecContext(ctx, query, args...); err != nil {
			return fmt.Errorf("%s: %w", insert, err)
		}
	}
	return nil
}

// flush writes the search entries of the rows written, after every other
// statement of the transaction. Each statement that writes a search table,
// or that runs after one was written, makes FTS5 flush its pending terms to
// a new segment; one statement per table for the whole sync keeps a cold
// build from turning into thousands of tiny segments and their merges.
func (w *writer) flush(ctx context.Context, tx *sql.Tx) error {
	if len(w.written) == 0 {
		return nil
	}
	for _, t := range []struct{ table, body string }{
		{"memories_fts", "body"},
		{"memories_tri", "CASE WHEN spaceless THEN body ELSE '' END"},
	} {
		if len(w.stale) > 0 {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t.table+" WHERE rowid IN ("+idList(w.stale)+")"); err != nil {
				return fmt.Errorf("unindex: %w", err)
			}
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO "+t.table+" (rowid, name, description, body, tags, files) "+
			"SELECT id, name, description, "+t.body+", tags, files FROM memories WHERE id IN ("+idList(w.written)+")")
		if err != nil {
			return fmt.Errorf("index: %w", err)
		}
	}
	return nil
}

// spaceless reports whether s holds a script written without spaces
// between words (Han, Hiragana, Katakana, Hangul, Thai...), whose words the
// word index cannot cut.
func spaceless(s string) bool {
	for _, r := range s {
		if r >= 0x0E00 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
			unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) {
			return true
		}
	}
	return false
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
