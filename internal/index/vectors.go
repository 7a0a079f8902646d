package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// An Embedder turns texts into vectors of length 1, one per text, all of
// one length, or nil for a text it cannot read; package embed's Model is
// one. ModelID names the model: two embedders with one id give the same
// vectors, and vectors of two ids are never compared.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	ModelID() string
}

// embedBatch is how many memories [DB.EmbedMissing] embeds between two
// writes: about a second of work, so the write lock is taken often and
// held for milliseconds, and an interrupted run keeps most of its work.
const embedBatch = 32

// EmbedMissing computes the vectors of the memories that have none, a
// batch at a time: the texts are read and embedded outside any
// transaction, and each batch is written in one short transaction, for
// the memories whose content is still what was embedded. So hooks and the
// MCP server, which only read, never wait for it. Vectors of another
// model than e's are dropped first, with their mean (see [DB.useModel]),
// and every memory is embedded again. progress, when not nil, is told
// after each batch how many are done of how many were missing. It
// returns how many vectors it wrote.
//
// A run that meets damage repairs the index ([DB.healed]: rebuilt from
// the files, without vectors) and starts again on the new one, which it
// embeds whole; it returns what it wrote there.
func (db *DB) EmbedMissing(ctx context.Context, e Embedder, progress func(done, total int)) (int, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (int, error) { return db.embedMissing(ctx, e, progress) })
}

func (db *DB) embedMissing(ctx context.Context, e Embedder, progress func(done, total int)) (int, error) {
	model := e.ModelID()
	if err := db.useModel(ctx, model); err != nil {
		return 0, fmt.Errorf("index: embed: %w", err)
	}
	var total int
	err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM memories m"+missingVector).Scan(&total)
	if err != nil {
		return 0, fmt.Errorf("index: embed: %w", err)
	}
	done := 0
	after := int64(0) // rows at or below were tried in this run
	for done < total {
		batch, err := db.unembedded(ctx, after)
		if err != nil || len(batch) == 0 {
			return done, err
		}
		after = batch[len(batch)-1].id
		texts := make([]string, len(batch))
		for i, m := range batch {
			texts[i] = m.text
		}
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			return done, fmt.Errorf("index: embed: %w", err)
		}
		if len(vecs) != len(batch) {
			return done, fmt.Errorf("index: embed: %d vectors for %d texts", len(vecs), len(batch))
		}
		n, err := db.writeVectors(ctx, model, batch, vecs)
		if err != nil {
			return done, fmt.Errorf("index: embed: %w", err)
		}
		done += n
		if progress != nil {
			progress(done, total)
		}
	}
	// The mean is written after the last batch; a run stopped between the
	// two leaves vectors without it, which the next run mends.
	var stale bool
	err = db.sql.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM vectors)
		AND NOT EXISTS (SELECT 1 FROM vector_mean)`).Scan(&stale)
	if err == nil && (done > 0 || stale) {
		err = db.writeMean(ctx, model)
	}
	if err != nil {
		return done, fmt.Errorf("index: embed: mean vector: %w", err)
	}
	return done, nil
}

// useModel makes model the one the vectors are of: when they are of
// another (or of none named, after an upgrade: see [upgrades]), it drops
// them and their mean in one short transaction, so that a process reading
// them for recall finds none until they are embedded again.
func (db *DB) useModel(ctx context.Context, model string) error {
	was, err := db.storedModel(ctx, db.sql)
	if err != nil || was != nil && *was == model {
		return err
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if was, err = db.storedModel(ctx, tx); err != nil || was != nil && *was == model {
		return err // another process got there first
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM vectors; DELETE FROM vector_mean;
		INSERT INTO vector_gen (k, gen, model) VALUES (1, 1, ?)
		ON CONFLICT (k) DO UPDATE SET gen = gen + 1, model = excluded.model`, model); err != nil {
		return err
	}
	if was != nil && *was != "" {
		db.log.Info("index: vectors of another model dropped, to be embedded again", "was", *was, "model", model)
	}
	return tx.Commit()
}

// storedModel returns the model the vectors are of, or nil before any
// EmbedMissing.
func (db *DB) storedModel(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (*string, error) {
	var model string
	err := q.QueryRowContext(ctx, "SELECT model FROM vector_gen WHERE k = 1").Scan(&model)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vector model: %w", err)
	}
	return &model, nil
}

// VectorModel returns the model the vectors are of (an [Embedder]'s
// ModelID), or "" when there are none.
//
// It is not healed when it meets damage ([DB.healed]): doctor asks it,
// and doctor only looks.
func (db *DB) VectorModel(ctx context.Context) (string, error) {
	var model string
	err := db.sql.QueryRowContext(ctx, `SELECT model FROM vector_gen
		WHERE k = 1 AND EXISTS (SELECT 1 FROM vectors)`).Scan(&model)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("index: vector model: %w", err)
	}
	return model, nil
}

// ofModel restricts a query to when the vectors are of the model its
// first argument names.
const ofModel = "EXISTS (SELECT 1 FROM vector_gen WHERE k = 1 AND model = ?)"

// writeMean stores the mean of every vector of model (see
// [DB.MeanVector]), unless the vectors are of another by then.
func (db *DB) writeMean(ctx context.Context, model string) error {
	v, err := db.Vectors(ctx, model)
	if err != nil {
		return err
	}
	vs, err := v.all(ctx)
	if err != nil || len(vs.ids) == 0 {
		return err
	}
	mean := make([]float64, vs.dim)
	for i := range vs.ids {
		for j, x := range vs.vector(i) {
			mean[j] += float64(x)
		}
	}
	b := make([]byte, 0, 4*vs.dim)
	for _, x := range mean {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(x/float64(len(vs.ids)))))
	}
	// The generation moves on with the mean, as with the vectors: a
	// process that keeps them (see [DB.Vectors]) reads it again.
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE vector_gen SET gen = gen + 1 WHERE k = 1 AND model = ?", model); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO vector_mean (k, data) SELECT 1, ? WHERE "+ofModel, b, model); err != nil {
		return err
	}
	return tx.Commit()
}

// missingVector restricts a query on memories m to those without a vector.
const missingVector = " WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.memory_id = m.id)"

// MissingVectors counts the memories without a vector of model (see
// [Embedder]): every memory, when the vectors are another model's.
func (db *DB) MissingVectors(ctx context.Context, model string) (int, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (int, error) { return db.missingVectors(ctx, model) })
}

func (db *DB) missingVectors(ctx context.Context, model string) (int, error) {
	var n int
	q := `SELECT CASE WHEN coalesce((SELECT model FROM vector_gen WHERE k = 1), '') NOT IN ('', ?)
		THEN (SELECT count(*) FROM memories) ELSE (SELECT count(*) FROM memories m` + missingVector + `) END`
	if err := db.sql.QueryRowContext(ctx, q, model).Scan(&n); err != nil {
		return 0, fmt.Errorf("index: count missing vectors: %w", err)
	}
	return n, nil
}

// unembedded is a memory waiting for its vector.
type unembedded struct {
	id   int64
	hash string
	text string
}

// unembedded returns the next batch of memories without a vector, by row
// past after.
func (db *DB) unembedded(ctx context.Context, after int64) ([]unembedded, error) {
	rows, err := db.sql.QueryContext(ctx, "SELECT m.id, m.hash, m.description, m.body FROM memories m"+
		missingVector+" AND m.id > ? ORDER BY m.id LIMIT ?", after, embedBatch)
	if err != nil {
		return nil, fmt.Errorf("index: embed: %w", err)
	}
	defer rows.Close()
	var out []unembedded
	for rows.Next() {
		var u unembedded
		var desc, body string
		if err := rows.Scan(&u.id, &u.hash, &desc, &body); err != nil {
			return nil, fmt.Errorf("index: embed: %w", err)
		}
		u.text = EmbedText(desc, body)
		out = append(out, u)
	}
	return out, rows.Err()
}

// writeVectors stores the vectors of batch, by model, each only if its
// memory still has the content hash it had when read, and returns how
// many it stored. It fails when the vectors are of another model by then
// (another process embeds with it).
func (db *DB) writeVectors(ctx context.Context, model string, batch []unembedded, vecs [][]float32) (int, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE vector_gen SET gen = gen + 1 WHERE k = 1 AND model = ?", model)
	if err != nil {
		return 0, err
	}
	if k, err := res.RowsAffected(); err != nil || k == 0 {
		return 0, cmp.Or(err, fmt.Errorf("the vectors are of another model than %s now", model))
	}
	n := 0
	for i, u := range batch {
		res, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vectors (memory_id, data)
			SELECT id, ? FROM memories WHERE id = ? AND hash = ?`, encodeVector(vecs[i]), u.id, u.hash)
		if err != nil {
			return 0, err
		}
		k, err := res.RowsAffected()
		if err != nil {
			return 0, err
		}
		n += int(k)
	}
	return n, tx.Commit()
}

// links matches a [[link]] of a memory body.
var links = regexp.MustCompile(`\[\[[^\[\]]*\]\]`)

// EmbedText is what of a memory is embedded: its description, then its
// body, on one line, without [[links]] (they name other memories; what
// those say is in their own vectors). The description is left out when
// the body already says it.
func EmbedText(description, body string) string {
	d := strings.Join(strings.Fields(description), " ")
	b := strings.Join(strings.Fields(links.ReplaceAllString(body, " ")), " ")
	switch {
	case b == "":
		return d
	case d == "" || strings.Contains(b, d):
		return b
	}
	return d + " " + b
}

// encodeVector stores v as int8 values with one float32 scale: a quarter
// of float32's size, within 0.4% of each value's range. No vector (a
// text the model cannot read) is stored as nothing, so that the memory
// is not embedded again.
func encodeVector(v []float32) []byte {
	if len(v) == 0 {
		return []byte{}
	}
	var most float32
	for _, x := range v {
		most = max(most, float32(math.Abs(float64(x))))
	}
	b := make([]byte, 4+len(v))
	scale := most / 127
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	for i, x := range v {
		if scale > 0 {
			b[4+i] = byte(int8(math.Round(float64(x / scale))))
		}
	}
	return b
}

// scanVectors reads rows of (id, data) into a [vectorSet], with each
// row's type from types (the lengths data), leaving out memories without
// a vector and vectors of another length than the first. Room is made
// for n vectors at once: growing 20 MB as they came took a third of the
// time when they were float32.
func scanVectors(rows *sql.Rows, types []byte, n int) (*vectorSet, error) {
	defer rows.Close()
	vs := &vectorSet{ids: make([]int64, 0, n), types: make([]byte, 0, n), scales: make([]float32, 0, n)}
	for rows.Next() {
		var id int64
		var data sql.RawBytes // copied by add: no copy before
		if err := rows.Scan(&id, &data); err != nil {
			return nil, err
		}
		if vs.codes == nil && len(data) > 4 {
			vs.codes = make([]byte, 0, n*(len(data)-4))
		}
		var typ byte
		if i := 3*int(id) + 2; id >= 0 && i < len(types) {
			typ = types[i]
		}
		vs.add(id, typ, data)
	}
	return vs, rows.Err()
}
