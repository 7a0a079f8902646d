package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// Top returns up to n active memories most worth having at the start of a
// session, bodies included: feedback and user memories first (how to work
// with this user), then the most recalled, the most confident, the newest.
//
// It reads the memories recalled so far and, in the order of the brief
// index, only as many of the others as it returns, so that its cost does
// not grow with the vault: sorting all of them took 11 ms at 10,000.
func (db *DB) Top(ctx context.Context, n int) ([]Doc, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Doc, error) { return db.top(ctx, n) })
}

func (db *DB) top(ctx context.Context, n int) ([]Doc, error) {
	var ids []int64
	for _, personal := range []bool{true, false} {
		for _, query := range []string{topRecalled, topOthers} {
			if len(ids) >= n {
				break
			}
			got, err := db.ids(ctx, query, personal, n-len(ids))
			if err != nil {
				return nil, err
			}
			ids = append(ids, got...)
		}
	}
	return db.docsInOrder(ctx, ids)
}

// The two halves of each class of [DB.Top] (personal: feedback and user
// memories, or not): the memories recalled before, by how often; then the
// others, which the brief index holds in order.
const (
	topRecalled = `SELECT m.id FROM history.recall_stats r JOIN memories m ON m.source = r.source AND m.name = r.name
		WHERE m.status != 'superseded' AND (m.type IN ('feedback', 'user')) = ?
		ORDER BY r.times DESC, m.confidence DESC, m.updated DESC, m.name, m.source LIMIT ?`
	topOthers = `SELECT id FROM memories INDEXED BY memories_brief
		WHERE status != 'superseded' AND (type IN ('feedback', 'user')) = ?
			AND NOT EXISTS (SELECT 1 FROM history.recall_stats r WHERE r.source = memories.source AND r.name = memories.name)
		ORDER BY confidence DESC, updated DESC, name, source LIMIT ?`
)

// UpdatedSince returns the active memories written at or after t, newest
// first, bodies included.
func (db *DB) UpdatedSince(ctx context.Context, t time.Time, n int) ([]Doc, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Doc, error) { return db.updatedSince(ctx, t, n) })
}

func (db *DB) updatedSince(ctx context.Context, t time.Time, n int) ([]Doc, error) {
	return db.selectDocs(ctx, `SELECT id FROM memories
		WHERE status != 'superseded' AND updated >= ? ORDER BY updated DESC, name LIMIT ?`,
		t.UTC().Format(time.RFC3339), n)
}

// selectDocs loads the docs whose ids query selects, in the query's order.
func (db *DB) selectDocs(ctx context.Context, query string, args ...any) ([]Doc, error) {
	ids, err := db.ids(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return db.docsInOrder(ctx, ids)
}

// ids runs a query selecting row ids.
func (db *DB) ids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := db.sql.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return ids, nil
}

// docsInOrder loads the docs of ids, in that order.
func (db *DB) docsInOrder(ctx context.Context, ids []int64) ([]Doc, error) {
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
	return sqlitefile.Retried(ctx, db.healed, func() ([]Doc, error) { return db.all(ctx) })
}

func (db *DB) all(ctx context.Context) ([]Doc, error) {
	return db.selectDocs(ctx, `SELECT id FROM memories ORDER BY source, name`)
}
