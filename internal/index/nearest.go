package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/mnemo-dev/mnemo/internal/memory"
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
	hits := make([]Hit, 0, len(sims))
	for i, s := range sims {
		if len(allowed) == 0 || slices.Contains(allowed, vs.types[i]) {
			hits = append(hits, Hit{ID: vs.ids[i], Score: float64(s)})
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	return hits[:min(q.Limit, len(hits))]
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
	rows, err := db.sql.QueryContext(ctx, "SELECT v.memory_id, m.type, v.data FROM vectors v JOIN memories m ON m.id = v.memory_id")
	if err != nil {
		return nil, err
	}
	vs, err := scanVectors(rows)
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
	rows, err := db.queryIDs(ctx, nil, "SELECT v.memory_id, m.type, v.data FROM vectors v JOIN memories m ON m.id = v.memory_id WHERE v.memory_id IN ", ids)
	if err != nil {
		return nil, err
	}
	return scanVectors(rows)
}

func typeCodeOf(typ string) byte { return typeCode(memory.Type(typ)) }
