package index

import (
	"cmp"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestNearestAsBefore: the vectors kept as stored, scored by dots, give
// the hits that gonum's Sgemv gave over them made float32 (how Nearest
// scored before), in the same order, with scores within 1e-6; for whole
// sets of random vectors, with and without a type filter.
func TestNearestAsBefore(t *testing.T) {
	tests := []struct {
		name   string
		n, dim int
		limit  int
		filter []memory.Type
	}{
		{"512", 3000, 512, 30, nil},
		{"filtered", 3001, 512, 10, []memory.Type{memory.TypeFeedback, memory.TypeUser}},
		{"64, all", 97, 64, 200, nil},
		{"odd dim", 500, 100, 20, nil},
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, tt := range tests {
		var vs vectorSet
		floats := make([]float32, 0, tt.n*tt.dim)
		for i := range tt.n {
			typ := typeCode(memory.Types[i%len(memory.Types)])
			vs.add(int64(i+1), typ, encodeVector(randomUnit(r, tt.dim)))
			floats = append(floats, vs.vector(i)...)
		}
		for k := range 5 {
			q := NearQuery{Vector: randomUnit(r, tt.dim), Limit: tt.limit, Filter: Filter{Types: tt.filter}}
			got := vs.nearest(q, nil)
			want := gemvNearest(floats, vs.types, tt.filter, q.Vector, tt.limit)
			if len(got) != len(want) {
				t.Fatalf("%s, query %d: %d hits, want %d", tt.name, k, len(got), len(want))
			}
			for j := range got {
				if got[j].ID != want[j].ID || math.Abs(got[j].Score-want[j].Score) > 1e-6 {
					t.Errorf("%s, query %d: hit %d = %d at %.7f, want %d at %.7f",
						tt.name, k, j, got[j].ID, got[j].Score, want[j].ID, want[j].Score)
				}
			}
		}
	}
}

// gemvNearest is Nearest as it was: gonum's Sgemv over float32 vectors,
// then the best limit of those of the allowed types (any when none), by
// score then id (rows are ids 1, 2, ...), by a full sort.
func gemvNearest(floats []float32, types []byte, allowed []memory.Type, q []float32, limit int) []Hit {
	n := len(types)
	sims := make([]float32, n)
	blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: n, Cols: len(q), Stride: len(q), Data: floats},
		blas32.Vector{N: len(q), Inc: 1, Data: q}, 0, blas32.Vector{N: n, Inc: 1, Data: sims})
	var hits []Hit
	for i, s := range sims {
		if allowed == nil || slices.ContainsFunc(allowed, func(t memory.Type) bool { return typeCode(t) == types[i] }) {
			hits = append(hits, Hit{ID: int64(i + 1), Score: float64(s)})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int { return cmp.Compare(b.Score, a.Score) })
	return hits[:min(limit, len(hits))]
}

// TestNearestAmongInPlace: scoring the kept vectors of some memories in
// place gives, to the bit, the hits of those vectors copied out and scored
// whole (how a recall scored the other lists' candidates before).
func TestNearestAmongInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var vs vectorSet
	for i := range 2000 {
		vs.add(int64(2*i+1), typeCode(memory.Types[i%len(memory.Types)]), encodeVector(randomUnit(r, 512)))
	}
	for k := range 20 {
		var ids []int64
		for range 1 + r.IntN(300) {
			ids = append(ids, int64(r.IntN(4100))) // some not in the set, some twice
		}
		q := NearQuery{Vector: randomUnit(r, 512), Limit: len(ids)}
		if k%2 == 1 {
			q.Filter = Filter{Types: []memory.Type{memory.TypeProject}}
		}
		got := vs.nearest(q, vs.positions(ids))
		want := copiedOut(&vs, ids).nearest(q, nil)
		same := func(a, b Hit) bool { return a.ID == b.ID && a.Score == b.Score }
		if !slices.EqualFunc(got, want, same) {
			t.Errorf("query %d over %d ids: in place %v\nwant %v", k, len(ids), got, want)
		}
	}
}

// copiedOut returns the vectors of vs's memories among ids, copied into a
// set of their own in order of id, each once.
func copiedOut(vs *vectorSet, ids []int64) *vectorSet {
	sub := &vectorSet{}
	for _, id := range slices.Compact(slices.Sorted(slices.Values(ids))) {
		if i, ok := slices.BinarySearch(vs.ids, id); ok {
			data := make([]byte, 4, 4+vs.dim)
			binary.LittleEndian.PutUint32(data, math.Float32bits(vs.scales[i]))
			sub.add(id, vs.types[i], append(data, vs.codes[i*vs.dim:(i+1)*vs.dim]...))
		}
	}
	return sub
}
