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

// writer holds the statements a sync writes rows with.
type writer struct {
	upsert, touch, delLinks, addLink, delAnchors, addAnchor *sql.Stmt

	written []int64 // rows whose search entries must be (re)written
	stale   []int64 // rows whose old search entries must go first
}

const upsertSQL = `
INSERT INTO memories (source, name, size, mtime, hash, ntok, type, confidence, status,
	superseded_by, created, updated, path, description, tags, files, body)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (source, name) DO UPDATE SET
	size = excluded.size, mtime = excluded.mtime, hash = excluded.hash, ntok = excluded.ntok,
	type = excluded.type, confidence = excluded.confidence, status = excluded.status,
	superseded_by = excluded.superseded_by, created = excluded.created,
	updated = excluded.updated, path = excluded.path, description = excluded.description,
	tags = excluded.tags, files = excluded.files, body = excluded.body
RETURNING id`

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{}
	for _, s := range []struct {
		dst   **sql.Stmt
		query string
	}{
		{&w.upsert, upsertSQL},
		{&w.touch, "UPDATE memories SET size = ?, mtime = ? WHERE id = ?"},
		{&w.delLinks, "DELETE FROM links WHERE memory_id = ?"},
		{&w.addLink, "INSERT OR IGNORE INTO links (memory_id, target) VALUES (?, ?)"},
		{&w.delAnchors, "DELETE FROM anchors WHERE memory_id = ?"},
		{&w.addAnchor, "INSERT OR IGNORE INTO anchors (memory_id, path, dir) VALUES (?, ?, ?)"},
	} {
		stmt, err := tx.PrepareContext(ctx, s.query)
		if err != nil {
			w.close()
			return nil, err
		}
		*s.dst = stmt
	}
	return w, nil
}

func (w *writer) close() {
	for _, s := range []*sql.Stmt{w.upsert, w.touch, w.delLinks, w.addLink, w.delAnchors, w.addAnchor} {
		if s != nil {
			s.Close()
		}
	}
}

// write stores one changed file: only its stat when its content is as
// stored, else the whole row, its links and its anchors.
func (w *writer) write(ctx context.Context, c change) error {
	if c.m == nil {
		_, err := w.touch.ExecContext(ctx, c.size, c.mtime, c.old.id)
		return err
	}
	m := c.m
	mtime := time.Unix(0, c.mtime)
	files := make([]string, 0, len(m.Anchors.Files))
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	tags, paths := strings.Join(m.Tags, " "), strings.Join(files, "\n")
	ntok := countWords(c.name) + countWords(m.Description) + countWords(m.Body) + countWords(tags) + countWords(paths)
	var id int64
	err := w.upsert.QueryRowContext(ctx, c.source, c.name, c.size, c.mtime, c.hash, ntok,
		string(m.Type), m.Confidence, string(status(m)), m.SupersededBy,
		formatTime(m.Created), formatTime(firstTime(m.Updated, m.Created, mtime)), c.path,
		m.Description, tags, paths, m.Body,
	).Scan(&id)
	if err != nil {
		return err
	}
	w.written = append(w.written, id)
	if c.old != nil {
		w.stale = append(w.stale, id)
		for _, s := range []*sql.Stmt{w.delLinks, w.delAnchors} {
			if _, err := s.ExecContext(ctx, id); err != nil {
				return err
			}
		}
	}
	for _, l := range m.Links() {
		if _, err := w.addLink.ExecContext(ctx, id, l); err != nil {
			return err
		}
	}
	for _, f := range files {
		if _, err := w.addAnchor.ExecContext(ctx, id, f, path.Dir(f)); err != nil {
			return err
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
	for _, table := range []string{"memories_fts", "memories_tri"} {
		if len(w.stale) > 0 {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE rowid IN ("+idList(w.stale)+")"); err != nil {
				return fmt.Errorf("unindex: %w", err)
			}
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO "+table+" (rowid, name, description, body, tags, files) "+
			"SELECT id, name, description, body, tags, files FROM memories WHERE id IN ("+idList(w.written)+")")
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
