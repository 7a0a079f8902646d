package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
)

// The df table counts the memories holding each stem, in their own text
// (not their context), so that a search can drop the commonest words of a
// query without first walking their postings. It is exact for what it
// counts and only steers that choice; BM25 takes its document frequencies
// from the occurrences it reads.

// stemSet returns the distinct stems of texts, using and filling cache
// (which may be nil).
func stemSet(cache map[string]string, texts ...string) []string {
	var all []string
	for _, t := range texts {
		all = append(all, words(t, cache)...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// forget subtracts the stems of the stored rows ids (edited or removed
// files) from the df counts to write.
func (w *writer) forget(ctx context.Context, tx *sql.Tx, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, "SELECT name, description, body, tags, files FROM memories WHERE id IN ("+idList(ids)+")")
	if err != nil {
		return fmt.Errorf("read old stems: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, desc, body, tags, files string
		if err := rows.Scan(&name, &desc, &body, &tags, &files); err != nil {
			return err
		}
		for _, s := range stemSet(nil, name, desc, body, tags, files) {
			w.df[s]--
		}
	}
	return rows.Err()
}

// writeDF adds the df changes of a sync to the table.
func (w *writer) writeDF(ctx context.Context, tx *sql.Tx) error {
	rows := make([][]any, 0, len(w.df))
	for s, n := range w.df {
		if n != 0 {
			rows = append(rows, []any{s, n})
		}
	}
	slices.SortFunc(rows, func(a, b []any) int { return cmp.Compare(a[0].(string), b[0].(string)) })
	err := insertBatches(ctx, tx, "INSERT INTO df (stem, n)", rows, " ON CONFLICT (stem) DO UPDATE SET n = n + excluded.n")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM df WHERE n <= 0"); err != nil {
		return fmt.Errorf("delete unused stems: %w", err)
	}
	return nil
}

// docFreq returns the df counts of stems; a stem in no memory is absent.
func (db *DB) docFreq(ctx context.Context, tx *sql.Tx, stems []string) (map[string]int, error) {
	list, err := json.Marshal(stems)
	if err != nil {
		return nil, err
	}
	stmt, err := db.stmt(ctx, "SELECT stem, n FROM df WHERE stem IN (SELECT value FROM json_each(?))")
	if err != nil {
		return nil, err
	}
	rows, err := tx.StmtContext(ctx, stmt).QueryContext(ctx, string(list))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	df := make(map[string]int, len(stems))
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		df[s] = n
	}
	return df, rows.Err()
}
