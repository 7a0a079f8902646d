package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A vectorGen names what index.db holds of the vectors: the count of
// syncs that wrote (in lengths), the count of writes to the vectors and
// their mean (in vector_gen), and the model they are of. Every write
// that changes a vector, the mean or the model moves one of the counts
// on in the same transaction, so what was read at one generation holds
// until the generation changes.
type vectorGen struct {
	syncs, vectors int64
	model          string
}

// A vectorState is what one generation of index.db holds of the vectors:
// whether there are any, their mean, and (read on first use) the vectors
// themselves. It is shared by every reader of that generation; only set
// changes once made, under DB.vmu.
type vectorState struct {
	gen  vectorGen
	has  bool       // a memory has a vector (an empty one too: see Vectors.Has)
	mean []float32  // nil when none was written
	set  *vectorSet // every vector; nil until first read (see Vectors.all)
}

// Vectors are the index's vectors of one model as one generation of
// index.db holds them (see [DB.Vectors]): whether there are any, their
// mean and the nearest to a vector, without asking the file again. A
// Vectors is safe for concurrent use.
type Vectors struct {
	db    *DB
	model string
	st    *vectorState
}

// Vectors returns the vectors of model as index.db holds them now: none
// when they are of another model. A process that asks again and again
// (the MCP server, on every recall) pays one small query a call while
// nothing changes: what it read is kept with the generation it was read
// at, and read again once a sync or [DB.EmbedMissing], in any process,
// has written since.
func (db *DB) Vectors(ctx context.Context, model string) (*Vectors, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (*Vectors, error) { return db.vectors(ctx, model) })
}

func (db *DB) vectors(ctx context.Context, model string) (*Vectors, error) {
	db.vmu.Lock()
	st := db.vstate
	db.vmu.Unlock()
	if st != nil { // kept: still current?
		gen, err := db.vectorGen(ctx)
		if err != nil {
			return nil, fmt.Errorf("index: vectors: %w", err)
		}
		if st.gen != gen {
			st = nil
		}
	}
	if st == nil {
		var err error
		if st, err = db.readVectorState(ctx); err != nil {
			return nil, fmt.Errorf("index: vectors: %w", err)
		}
		db.vmu.Lock()
		db.vstate = st
		db.vmu.Unlock()
	}
	return &Vectors{db: db, model: model, st: st}, nil
}

// vectorGenQuery reads the [vectorGen]; so does the start of
// readVectorState's.
const vectorGenQuery = `SELECT coalesce((SELECT gen FROM lengths WHERE k = 1), 0),
	coalesce((SELECT gen FROM vector_gen WHERE k = 1), 0),
	coalesce((SELECT model FROM vector_gen WHERE k = 1), '')`

// vectorGen returns the generation index.db's vectors are at.
func (db *DB) vectorGen(ctx context.Context) (vectorGen, error) {
	var g vectorGen
	stmt, err := db.stmt(ctx, vectorGenQuery)
	if err != nil {
		return g, err
	}
	err = stmt.QueryRowContext(ctx).Scan(&g.syncs, &g.vectors, &g.model)
	return g, err
}

// readVectorState reads the generation, whether there are vectors and
// their mean in one statement, so that they agree.
func (db *DB) readVectorState(ctx context.Context) (*vectorState, error) {
	stmt, err := db.stmt(ctx, vectorGenQuery+`, EXISTS (SELECT 1 FROM vectors),
		(SELECT data FROM vector_mean WHERE k = 1)`)
	if err != nil {
		return nil, err
	}
	st := &vectorState{}
	var mean []byte
	if err := stmt.QueryRowContext(ctx).Scan(&st.gen.syncs, &st.gen.vectors, &st.gen.model, &st.has, &mean); err != nil {
		return nil, err
	}
	if mean != nil {
		st.mean = make([]float32, len(mean)/4)
		for i := range st.mean {
			st.mean[i] = math.Float32frombits(binary.LittleEndian.Uint32(mean[4*i:]))
		}
	}
	return st, nil
}

// ours reports whether the vectors are of v's model.
func (v *Vectors) ours() bool { return v.st.gen.model == v.model }

// Has reports whether any memory has a vector of v's model: recall by
// meaning is worth loading the model for.
func (v *Vectors) Has() bool { return v.ours() && v.st.has }

// Mean returns the mean of the vectors as the last [DB.EmbedMissing] that
// wrote computed it, or nil before any, or when they are of another model.
// Its dot product with a query's vector is the query's mean cosine
// similarity to the vault: what recall by meaning measures a memory's
// nearness from, so that a query near everything (a vague one) is not
// taken to be near each. A sync that edits or removes memories leaves it
// as it was until the next EmbedMissing: a mean moves little with a few
// memories. It is shared: callers must not change it.
func (v *Vectors) Mean() []float32 {
	if !v.ours() {
		return nil
	}
	return v.st.mean
}

// Nearest is [DB.Nearest] over v, whose model q.Model need not name.
func (v *Vectors) Nearest(ctx context.Context, q NearQuery) ([]Hit, error) {
	return sqlitefile.Retried(ctx, v.db.healed, func() ([]Hit, error) { return v.nearest(ctx, q) })
}

func (v *Vectors) nearest(ctx context.Context, q NearQuery) ([]Hit, error) {
	if q.Limit <= 0 || len(q.Vector) == 0 {
		return nil, nil
	}
	var vs *vectorSet
	var at []int
	var err error
	if q.Among != nil {
		vs, at, err = v.among(ctx, q.Among)
	} else {
		vs, err = v.all(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("index: nearest: %w", err)
	}
	return vs.nearest(q, at), nil
}

// all returns every vector, read from the file on first use at v's
// generation.
func (v *Vectors) all(ctx context.Context) (*vectorSet, error) {
	if !v.Has() {
		return &vectorSet{}, nil
	}
	db := v.db
	db.vmu.Lock()
	defer db.vmu.Unlock()
	if v.st.set != nil {
		return v.st.set, nil
	}
	types, err := db.typeCodes(ctx)
	if err != nil {
		return nil, err
	}
	// In the order of the table's key: no sort, and subset can search it.
	// The model is asked again: it may have changed since the generation
	// was read (then the next call reads them again).
	rows, err := db.sql.QueryContext(ctx, "SELECT memory_id, data FROM vectors WHERE "+ofModel+" ORDER BY memory_id", v.model)
	if err != nil {
		return nil, err
	}
	vs, err := scanVectors(rows, types, len(types)/3)
	if err != nil {
		return nil, err
	}
	v.st.set = vs
	return vs, nil
}

// among returns the vectors of ids: those kept when they were read at v's
// generation, with the positions of ids among them (scored in place, not
// copied), else from the file, only those rows, and nil positions.
func (v *Vectors) among(ctx context.Context, ids []int64) (*vectorSet, []int, error) {
	if len(ids) == 0 || !v.Has() {
		return &vectorSet{}, nil, nil
	}
	db := v.db
	db.vmu.Lock()
	kept := v.st.set
	db.vmu.Unlock()
	if kept != nil {
		return kept, kept.positions(ids), nil
	}
	types, err := db.typeCodes(ctx)
	if err != nil {
		return nil, nil, err
	}
	rows, err := db.queryIDs(ctx, nil, "SELECT memory_id, data FROM vectors WHERE "+ofModel+" AND memory_id IN ", ids, v.model)
	if err != nil {
		return nil, nil, err
	}
	vs, err := scanVectors(rows, types, len(ids))
	return vs, nil, err
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
