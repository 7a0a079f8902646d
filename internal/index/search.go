package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// Weights are the BM25 weights of the indexed columns: a term found in a
// column with weight 2 counts twice as much as one found in a column with weight 1.
type Weights struct {
	Name, Description, Body, Tags, Files float64
	// Context weighs the descriptions of the memories a memory links to:
	// a memory is also found, more weakly, by what its neighbours are about.
	Context float64
}

// A Filter narrows a search.
type Filter struct {
	Types []memory.Type // only memories of these types; none means every type
}

// A Hit is one memory a search found.
type Hit struct {
	ID    int64
	Score float64  // higher is better; comparable only within one search
	Head  Doc      // what [DB.Heads] returns, read in the same query
	Stems []string // of a word search: the stems of the query the memory holds
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

// SearchSubstrings returns up to limit memories holding any of subs as a
// substring (case-insensitive), best first, in their name, their anchored
// paths, a chunk of their text that looks like code ([IsCode]) or text of
// theirs written without spaces (CJK). Substrings shorter than three
// characters match nothing. It finds parts of identifiers and words in text
// without spaces, which the word index cannot.
func (db *DB) SearchSubstrings(ctx context.Context, subs []string, f Filter, limit int) ([]Hit, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Hit, error) { return db.searchSubstrings(ctx, subs, f, limit) })
}

func (db *DB) searchSubstrings(ctx context.Context, subs []string, f Filter, limit int) ([]Hit, error) {
	hits, err := db.match(ctx, "memories_tri", subs, "1", f, limit)
	if err != nil {
		return nil, fmt.Errorf("index: search substrings: %w", err)
	}
	return hits, nil
}

// match runs an FTS5 query ranked by bm25() with the given column weights.
// bm25() in ORDER BY is several times faster than the rank column under
// the pure-Go SQLite.
func (db *DB) match(ctx context.Context, table string, terms []string, weights string, f Filter, limit int) ([]Hit, error) {
	expr := matchAny(terms)
	if expr == "" || limit <= 0 {
		return nil, nil
	}
	args := []any{expr}
	inner := "SELECT rowid AS id, bm25(" + table + ", " + weights + ") AS score FROM " + table +
		" WHERE " + table + " MATCH ?"
	if len(f.Types) > 0 {
		inner = "SELECT f.rowid AS id, bm25(" + table + ", " + weights + ") AS score FROM " + table +
			" f JOIN memories m ON m.id = f.rowid WHERE " + table + " MATCH ? AND m.type IN (" +
			placeholders(len(f.Types)) + ")"
		for _, t := range f.Types {
			args = append(args, string(t))
		}
	}
	args = append(args, limit)
	stmt, err := db.stmt(ctx, "SELECT h.score, "+headColumns+" FROM ("+inner+" ORDER BY score LIMIT ?) h"+
		" JOIN memories m ON m.id = h.id"+headJoin+" ORDER BY h.score")
	if err != nil {
		return nil, err
	}
	rows, err := stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		if err := scanHead(rows, &h.Head, &h.Score); err != nil {
			return nil, err
		}
		h.ID = h.Head.ID
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
	return sqlitefile.Retried(ctx, db.healed, func() ([]FileHit, error) { return db.anchored(ctx, paths, f) })
}

func (db *DB) anchored(ctx context.Context, paths []string, f Filter) ([]FileHit, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	dirs := make([]string, len(paths))
	for i, p := range paths {
		dirs[i] = parentDir(p)
	}
	types := make([]string, len(f.Types))
	for i, t := range f.Types {
		types[i] = string(t)
	}
	var args []any
	for _, v := range [][]string{paths, dirs, types} {
		j, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("index: anchored: %w", err)
		}
		args = append(args, string(j))
	}
	const typeOK = " AND (json_array_length(?3) = 0 OR m.type IN (SELECT value FROM json_each(?3)))"
	stmt, err := db.stmt(ctx, `
		SELECT a.memory_id, a.path FROM anchors a JOIN memories m ON m.id = a.memory_id
		WHERE a.path IN (SELECT value FROM json_each(?1))`+typeOK+`
		UNION
		SELECT a.memory_id, a.path FROM anchors a JOIN memories m ON m.id = a.memory_id
		WHERE a.dir IN (SELECT value FROM json_each(?2))`+typeOK+`
		ORDER BY 1, 2`)
	if err != nil {
		return nil, fmt.Errorf("index: anchored: %w", err)
	}
	rows, err := stmt.QueryContext(ctx, args...)
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

// queryIDs runs query with the list of ids appended, as a prepared
// statement taking args (for query's own placeholders), then the ids as
// one JSON array, in tx when it is not nil.
func (db *DB) queryIDs(ctx context.Context, tx *sql.Tx, query string, ids []int64, args ...any) (*sql.Rows, error) {
	stmt, err := db.stmt(ctx, query+"(SELECT value FROM json_each(?))")
	if err != nil {
		return nil, err
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	if tx != nil {
		stmt = tx.StmtContext(ctx, stmt)
	}
	return stmt.QueryContext(ctx, append(args, string(list))...)
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

// scanPairs reads rows of (int64, int64) pairs.
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
