package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Weights are the BM25 weights of the indexed columns: a term found in a
// column with weight 2 counts twice as much as one found in a column with weight 1.
type Weights struct {
	Name, Description, Body, Tags, Files float64
}

// A Filter narrows a search.
type Filter struct {
	Types []memory.Type // only memories of these types; none means every type
}

// A Hit is one memory a search found.
type Hit struct {
	ID    int64
	Score float64 // higher is better; comparable only within one search
}

// Quote makes s one FTS5 string, so that no text is read as query syntax:
// inner quotes are doubled, and NUL bytes, which end a string early in
// SQLite's C code, are dropped.
func Quote(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// matchAny is the FTS5 expression matching any of terms, each quoted.
func matchAny(terms []string) string {
	q := make([]string, 0, len(terms))
	for _, t := range terms {
		if strings.Trim(t, "\x00") != "" {
			q = append(q, Quote(t))
		}
	}
	return strings.Join(q, " OR ")
}

// Search returns up to limit memories matching any of terms in the stemmed
// word index, best first by BM25 with column weights w. Each term is quoted:
// a term is words to match in sequence, never an operator.
func (db *DB) Search(ctx context.Context, terms []string, w Weights, f Filter, limit int) ([]Hit, error) {
	rank := fmt.Sprintf("bm25(%g, %g, %g, %g, %g)", w.Name, w.Description, w.Body, w.Tags, w.Files)
	hits, err := db.match(ctx, "memories_fts", terms, rank, f, limit)
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	return hits, nil
}

// SearchSubstrings returns up to limit memories containing any of subs as a
// substring (case-insensitive), best first. Substrings shorter than three
// characters match nothing. It finds parts of identifiers and words in text
// written without spaces, which the word index cannot.
func (db *DB) SearchSubstrings(ctx context.Context, subs []string, f Filter, limit int) ([]Hit, error) {
	hits, err := db.match(ctx, "memories_tri", subs, "bm25(4, 3, 1, 2, 2)", f, limit)
	if err != nil {
		return nil, fmt.Errorf("index: search substrings: %w", err)
	}
	return hits, nil
}

func (db *DB) match(ctx context.Context, table string, terms []string, rank string, f Filter, limit int) ([]Hit, error) {
	expr := matchAny(terms)
	if expr == "" || limit <= 0 {
		return nil, nil
	}
	args := []any{expr, rank}
	query := "SELECT rowid, rank FROM " + table + " WHERE " + table + " MATCH ? AND rank MATCH ?"
	if len(f.Types) > 0 {
		query = "SELECT f.rowid, f.rank FROM " + table + " f JOIN memories m ON m.id = f.rowid" +
			" WHERE " + table + " MATCH ? AND f.rank MATCH ? AND m.type IN (" + placeholders(len(f.Types)) + ")"
		for _, t := range f.Types {
			args = append(args, string(t))
		}
	}
	query += " ORDER BY rank LIMIT ?"
	args = append(args, limit)
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.ID, &h.Score); err != nil {
			return nil, err
		}
		h.Score = -h.Score // bm25() is lower for better matches
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// A FileHit is a memory anchored to a file a query named, or to another
// file in the same folder.
type FileHit struct {
	ID    int64
	Path  string // the anchored path that matched
	Exact bool   // the same file, not only the same folder
}

// Anchored returns the memories anchored to any of paths (slash-separated,
// relative to the repository root), or to a file in the same folder.
func (db *DB) Anchored(ctx context.Context, paths []string, f Filter) ([]FileHit, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	var args []any
	for _, p := range paths {
		args = append(args, p)
	}
	for _, p := range paths {
		args = append(args, parentDir(p))
	}
	query := `SELECT a.memory_id, a.path FROM anchors a JOIN memories m ON m.id = a.memory_id
		WHERE (a.path IN (` + placeholders(len(paths)) + `) OR a.dir IN (` + placeholders(len(paths)) + `))`
	if len(f.Types) > 0 {
		query += " AND m.type IN (" + placeholders(len(f.Types)) + ")"
		for _, t := range f.Types {
			args = append(args, string(t))
		}
	}
	rows, err := db.sql.QueryContext(ctx, query+" ORDER BY a.memory_id, a.path", args...)
	if err != nil {
		return nil, fmt.Errorf("index: anchored: %w", err)
	}
	defer rows.Close()
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	var hits []FileHit
	for rows.Next() {
		var h FileHit
		if err := rows.Scan(&h.ID, &h.Path); err != nil {
			return nil, fmt.Errorf("index: anchored: %w", err)
		}
		h.Exact = want[h.Path]
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: anchored: %w", err)
	}
	return hits, nil
}

// parentDir is path.Dir for the dir column: "." for a file at the root.
func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return "."
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// idList writes ids as an SQL list; they are integers, so nothing needs quoting.
func idList(ids []int64) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

// scanIDs reads rows of (int64, int64) pairs.
func scanPairs(rows *sql.Rows) ([][2]int64, error) {
	defer rows.Close()
	var out [][2]int64
	for rows.Next() {
		var p [2]int64
		if err := rows.Scan(&p[0], &p[1]); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// DocFreq returns how many memories contain each of terms, as the word
// index stores them (lower-case, Porter-stemmed). A term in no memory is
// left out of the map.
func (db *DB) DocFreq(ctx context.Context, terms []string) (map[string]int, error) {
	tx, err := db.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("index: doc freq: %w", err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "SELECT doc FROM memories_vocab WHERE term = ?")
	if err != nil {
		return nil, fmt.Errorf("index: doc freq: %w", err)
	}
	defer stmt.Close()
	df := make(map[string]int, len(terms))
	for _, t := range terms {
		var n int
		err := stmt.QueryRowContext(ctx, t).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("index: doc freq %q: %w", t, err)
		}
		df[t] = n
	}
	return df, nil
}
