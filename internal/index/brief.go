package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Top returns up to n active memories most worth having at the start of a
// session, bodies included: feedback and user memories first (how to work
// with this user), then the most recalled, the most confident, the newest.
func (db *DB) Top(ctx context.Context, n int) ([]Doc, error) {
	return db.selectDocs(ctx, `SELECT m.id FROM memories m INDEXED BY memories_brief
		LEFT JOIN recall_stats r ON r.source = m.source AND r.name = m.name
		WHERE m.status != 'superseded'
		ORDER BY m.type IN ('feedback', 'user') DESC, coalesce(r.times, 0) DESC,
			m.confidence DESC, m.updated DESC, m.name
		LIMIT ?`, n)
}

// UpdatedSince returns the active memories written at or after t, newest
// first, bodies included.
func (db *DB) UpdatedSince(ctx context.Context, t time.Time, n int) ([]Doc, error) {
	return db.selectDocs(ctx, `SELECT id FROM memories
		WHERE status != 'superseded' AND updated >= ? ORDER BY updated DESC, name LIMIT ?`,
		t.UTC().Format(time.RFC3339), n)
}

// selectDocs loads the docs whose ids query selects, in the query's order.
func (db *DB) selectDocs(ctx context.Context, query string, args ...any) ([]Doc, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("index: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	docs, err := db.Docs(ctx, ids)
	if err != nil {
		return nil, err
	}
	pos := make(map[int64]int, len(ids))
	for i, id := range ids {
		pos[id] = i
	}
	slices.SortFunc(docs, func(a, b Doc) int { return cmp.Compare(pos[a.ID], pos[b.ID]) })
	return docs, nil
}

// All returns every indexed memory, bodies included, by source and name.
func (db *DB) All(ctx context.Context) ([]Doc, error) {
	return db.selectDocs(ctx, `SELECT id FROM memories ORDER BY source, name`)
}
