package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// A NearQuery asks for the memories whose vectors are nearest a vector.
type NearQuery struct {
	Vector []float32 // of length 1, as an [Embedder] gives
	Filter Filter
	Limit  int
	// Among, when not nil, limits the search to these memories: a hook
	// reranks what the words found without reading every vector.
	Among []int64
}

// Nearest returns up to q.Limit memories with a vector, nearest q.Vector
// first; a Hit's Score is the cosine similarity. Memories without a
// vector, or with one of another length, are left out. The whole set of
// vectors is read once and kept until a sync or [DB.EmbedMissing]
// changes it, so that a long-lived process (the MCP server) scans memory,
// not the file.
func (db *DB) Nearest(ctx context.Context, q NearQuery) ([]Hit, error) {
	if q.Limit <= 0 || len(q.Vector) == 0 {
		return nil, nil
	}
	var vs *vectorSet
	var err error
	if q.Among != nil {
		vs, err = db.readVectors(ctx, q.Among)
	} else {
		vs, err = db.allVectors(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("index: nearest: %w", err)
	}
	return vs.nearest(q), nil
}

// A vectorSet is vectors in memory: row i of data is the vector of ids[i].
type vectorSet struct {
	ids   []int64
	types []byte // typeCode of each
	dim   int
	data  []float32
}

// nearest scores every vector of the set against q.Vector.
func (vs *vectorSet) nearest(q NearQuery) []Hit {
	if len(vs.ids) == 0 || len(q.Vector) != vs.dim {
		return nil
	}
	sims := make([]float32, len(vs.ids))
	blas32.Gemv(blas.NoTrans, 1,
		blas32.General{Rows: len(vs.ids), Cols: vs.dim, Stride: vs.dim, Data: vs.data},
		blas32.Vector{N: vs.dim, Inc: 1, Data: q.Vector}, 0,
		blas32.Vector{N: len(sims), Inc: 1, Data: sims})
	var allowed []byte
	for _, t := range q.Filter.Types {
		allowed = append(allowed, typeCode(t))
	}
	// The best q.Limit, kept sorted: a new one goes in only when it beats
	// the last, which is rare past the first few hundred.
	type scored struct {
		s float32
		i int
	}
	top := make([]scored, 0, min(q.Limit, len(sims)))
	better := func(a, b scored) bool { return a.s > b.s || a.s == b.s && vs.ids[a.i] < vs.ids[b.i] }
	for i, s := range sims {
		if len(allowed) > 0 && !slices.Contains(allowed, vs.types[i]) {
			continue
		}
		c := scored{s, i}
		if len(top) == q.Limit && !better(c, top[len(top)-1]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, c, func(a, b scored) int {
			if better(a, b) {
				return -1
			}
			return 1
		})
		if len(top) == q.Limit {
			top = top[:len(top)-1]
		}
		top = slices.Insert(top, at, c)
	}
	hits := make([]Hit, len(top))
	for j, c := range top {
		hits[j] = Hit{ID: vs.ids[c.i], Score: float64(c.s)}
	}
	return hits
}

// allVectors returns every vector, from memory when neither a sync nor
// EmbedMissing wrote since they were read.
func (db *DB) allVectors(ctx context.Context) (*vectorSet, error) {
	var key [2]int64
	err := db.sql.QueryRowContext(ctx, `SELECT coalesce((SELECT gen FROM lengths WHERE k = 1), 0),
		coalesce((SELECT gen FROM vector_gen WHERE k = 1), 0)`).Scan(&key[0], &key[1])
	if err != nil {
		return nil, err
	}
	db.vmu.Lock()
	defer db.vmu.Unlock()
	if db.vectors != nil && db.vectorsKey == key {
		return db.vectors, nil
	}
	types, err := db.typeCodes(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := db.sql.QueryContext(ctx, "SELECT memory_id, data FROM vectors")
	if err != nil {
		return nil, err
	}
	vs, err := scanVectors(rows, types, len(types)/3)
	if err != nil {
		return nil, err
	}
	db.vectors, db.vectorsKey = vs, key
	return vs, nil
}

// readVectors returns the vectors of ids.
func (db *DB) readVectors(ctx context.Context, ids []int64) (*vectorSet, error) {
	if len(ids) == 0 {
		return &vectorSet{}, nil
	}
	types, err := db.typeCodes(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := db.queryIDs(ctx, nil, "SELECT memory_id, data FROM vectors WHERE memory_id IN ", ids)
	if err != nil {
		return nil, err
	}
	return scanVectors(rows, types, len(ids))
}

// typeCodes returns the lengths row's data, which holds each row's
// [typeCode] (see bm25.go): reading it beats joining every vector with
// its memory by a third.
func (db *DB) typeCodes(ctx context.Context) ([]byte, error) {
	var data []byte
	err := db.sql.QueryRowContext(ctx, "SELECT data FROM lengths WHERE k = 1").Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return data, err
}
