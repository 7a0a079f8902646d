package index

import (
	"context"
	"encoding/binary"
	"math"
	"slices"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A NearQuery asks for the memories whose vectors are nearest a vector.
type NearQuery struct {
	Vector []float32 // of length 1, as an [Embedder] gives
	Model  string    // the ModelID of the Embedder that gave Vector
	Filter Filter
	Limit  int
	// Among, when not nil, limits the search to these memories: a hook
	// reranks what the words found without reading every vector.
	Among []int64
}

// Nearest returns up to q.Limit memories with a vector, nearest q.Vector
// first; a Hit's Score is the cosine similarity. Memories without a
// vector, or with one of another length, are left out; so are all when
// the vectors are of another model than q.Model. The whole set of
// vectors is read once and kept, as stored (int8 with a scale: 5 MB at
// 10,000 memories), until a sync or [DB.EmbedMissing] changes it, so that
// a long-lived process (the MCP server) scans memory, not the file. With
// q.Among, the vectors kept serve when they are current; a process that
// holds none (a hook) reads only those rows.
func (db *DB) Nearest(ctx context.Context, q NearQuery) ([]Hit, error) {
	return sqlitefile.Retried(ctx, db.healed, func() ([]Hit, error) { return db.nearest(ctx, q) })
}

func (db *DB) nearest(ctx context.Context, q NearQuery) ([]Hit, error) {
	if q.Limit <= 0 || len(q.Vector) == 0 {
		return nil, nil
	}
	v, err := db.Vectors(ctx, q.Model)
	if err != nil {
		return nil, err
	}
	return v.Nearest(ctx, q)
}

// A vectorSet is vectors in memory as they are stored (see encodeVector):
// vector i, of ids[i], is codes[i*dim:(i+1)*dim], each byte an int8,
// times scales[i].
type vectorSet struct {
	ids    []int64 // ascending in the set allVectors keeps
	types  []byte  // typeCode of each
	dim    int
	scales []float32
	codes  []byte
}

// add appends the vector data (as stored) of memory id, of type typ,
// unless it is empty (the model could not read the memory) or of another
// length than the first added.
func (vs *vectorSet) add(id int64, typ byte, data []byte) {
	if len(data) <= 4 || vs.dim != 0 && len(data)-4 != vs.dim {
		return
	}
	vs.dim = len(data) - 4
	vs.ids = append(vs.ids, id)
	vs.types = append(vs.types, typ)
	vs.scales = append(vs.scales, math.Float32frombits(binary.LittleEndian.Uint32(data)))
	vs.codes = append(vs.codes, data[4:]...)
}

// vector returns vector i as float32 values.
func (vs *vectorSet) vector(i int) []float32 {
	v := make([]float32, vs.dim)
	for j, c := range vs.codes[i*vs.dim : (i+1)*vs.dim] {
		v[j] = float32(int8(c)) * vs.scales[i]
	}
	return v
}

// positions returns the positions in the set of the memories among ids
// it holds, ascending (in order of id), each once; not nil.
func (vs *vectorSet) positions(ids []int64) []int {
	at := []int{}
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if i, ok := slices.BinarySearch(vs.ids, id); ok {
			at = append(at, i)
		}
	}
	return at
}

// nearest scores the vectors of the set at positions at (every one when
// at is nil) against q.Vector.
func (vs *vectorSet) nearest(q NearQuery, at []int) []Hit {
	if len(vs.ids) == 0 || len(q.Vector) != vs.dim {
		return nil
	}
	var sims []float32
	if at == nil {
		sims = make([]float32, len(vs.ids))
		dots(vs.codes, vs.scales, q.Vector, sims, vs.dim)
	} else {
		sims = make([]float32, len(at))
		for k, i := range at {
			dots(vs.codes[i*vs.dim:(i+1)*vs.dim], vs.scales[i:i+1], q.Vector, sims[k:k+1], vs.dim)
		}
	}
	var allowed [256]bool
	for _, t := range q.Filter.Types {
		allowed[typeCode(t)] = true
	}
	filter := len(q.Filter.Types) > 0
	// The best q.Limit, kept sorted: a new one goes in only when it beats
	// the last, which is rare past the first few hundred.
	type scored struct {
		s float32
		i int
	}
	top := make([]scored, 0, min(q.Limit, len(sims)))
	better := func(a, b scored) bool { return a.s > b.s || a.s == b.s && vs.ids[a.i] < vs.ids[b.i] }
	for k, s := range sims {
		i := k
		if at != nil {
			i = at[k]
		}
		if filter && !allowed[vs.types[i]] {
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
