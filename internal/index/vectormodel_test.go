package index

import (
	"context"
	"testing"
)

// TestRecallOtherModel: after an upgrade whose model differs, a process
// reading vectors for recall uses none of the old model's (neither the
// vectors, read from the file or kept in memory, nor their mean): recall
// falls back to words until EmbedMissing runs with the new model.
func TestRecallOtherModel(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{model: "v1"}, nil); err != nil {
		t.Fatal(err)
	}
	all, err := db.Nearest(ctx, NearQuery{Vector: modelVector("v1", "deploy"), Model: "v1", Limit: 10})
	if err != nil || len(all) != 3 {
		t.Fatalf("Nearest by v1 = %v, %v; want 3 hits", all, err)
	}
	ids := []int64{all[0].ID, all[1].ID}
	tests := []struct {
		name  string
		model string
		keep  bool // the vectors are kept in memory (a server), not read (a hook)
		among []int64
		want  int
	}{
		{"same model", "v1", false, nil, 3},
		{"other model", "v2", false, nil, 0},
		{"other model, kept", "v2", true, nil, 0},
		{"other model, among, read", "v2", false, ids, 0},
		{"other model, among, kept", "v2", true, ids, 0},
		{"same model, among, read", "v1", false, ids, 2},
	}
	for _, tt := range tests {
		db.vmu.Lock()
		db.vstate = nil
		db.vmu.Unlock()
		if tt.keep {
			if _, err := db.Nearest(ctx, NearQuery{Vector: modelVector("v1", "x"), Model: "v1", Limit: 1}); err != nil {
				t.Fatal(err)
			}
		}
		q := NearQuery{Vector: modelVector(tt.model, "deploy"), Model: tt.model, Limit: 10, Among: tt.among}
		hits, err := db.Nearest(ctx, q)
		if err != nil || len(hits) != tt.want {
			t.Errorf("%s: Nearest = %v, %v; want %d hits", tt.name, hits, err, tt.want)
		}
	}
	for _, m := range []struct {
		model string
		want  bool
	}{{"v1", true}, {"v2", false}, {"", false}} {
		if ok, err := hasVectors(ctx, db, m.model); ok != m.want || err != nil {
			t.Errorf("HasVectors(%q) = %v, %v; want %v", m.model, ok, err, m.want)
		}
		if mean, err := meanVector(ctx, db, m.model); (mean != nil) != m.want || err != nil {
			t.Errorf("MeanVector(%q) = %d values, %v; want some: %v", m.model, len(mean), err, m.want)
		}
	}
	if got, err := db.VectorModel(ctx); got != "v1" || err != nil {
		t.Errorf("VectorModel = %q, %v; want v1", got, err)
	}
}

// TestEmbedMissingOtherModel: EmbedMissing with another model drops the
// old vectors and their mean, and embeds every memory again: recall by
// meaning then works with the new model, and not with the old.
func TestEmbedMissingOtherModel(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{model: "v1"}, nil); err != nil {
		t.Fatal(err)
	}
	v2 := &wordEmbedder{model: "v2"}
	if n, err := db.EmbedMissing(ctx, v2, nil); n != 3 || err != nil || len(v2.texts) != 3 {
		t.Fatalf("EmbedMissing by v2 = %d, %v after embedding %d texts; want 3, nil after 3", n, err, len(v2.texts))
	}
	if n, err := db.EmbedMissing(ctx, v2, nil); n != 0 || err != nil {
		t.Errorf("EmbedMissing by v2 again = %d, %v; want 0, nil", n, err)
	}
	q := NearQuery{Vector: modelVector("v2", "how do we deploy"), Model: "v2", Limit: 3}
	if got := nearestNames(t, db, q); len(got) != 3 || got[0] != "deploy" {
		t.Errorf("Nearest by v2 = %v, want 3 hits, deploy first", got)
	}
	q.Vector, q.Model = modelVector("v1", "how do we deploy"), "v1"
	if got := nearestNames(t, db, q); len(got) != 0 {
		t.Errorf("Nearest by v1 after v2 embedded = %v, want none", got)
	}
	// The mean is v2's: a v2 query's dot with it is its mean similarity.
	mean, err := meanVector(ctx, db, "v2")
	if err != nil || len(mean) != 64 {
		t.Fatalf("MeanVector(v2) = %d values, %v; want 64", len(mean), err)
	}
	var want, got float64
	for _, name := range []string{"deploy", "cat", "tests"} {
		want += cosine64(modelVector("v2", "deploy"), modelVector("v2", memText(t, db, name))) / 3
	}
	got = cosine64(modelVector("v2", "deploy"), mean)
	if d := got - want; d > 1e-2 || d < -1e-2 {
		t.Errorf("query · MeanVector(v2) = %.4f, want the mean similarity %.4f", got, want)
	}
}

// TestMigrateDropsUnnamedVectors: an index.db of version 15 keeps its
// memories but not its vectors, which name no model: they are embedded
// again, and nothing else is rebuilt.
func TestMigrateDropsUnnamedVectors(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{model: "v1"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"ALTER TABLE vector_gen DROP COLUMN model", "PRAGMA user_version = 15"} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	path := db.Path()
	db.Close()
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var memories int
	if err := db.sql.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&memories); err != nil || memories != 3 {
		t.Errorf("memories after the upgrade = %d, %v; want 3 (kept)", memories, err)
	}
	if n, err := db.MissingVectors(ctx, ""); n != 3 || err != nil {
		t.Errorf("MissingVectors after the upgrade = %d, %v; want 3", n, err)
	}
	if m, err := db.VectorModel(ctx); m != "" || err != nil {
		t.Errorf("VectorModel after the upgrade = %q, %v; want none", m, err)
	}
	if ok, _ := hasVectors(ctx, db, "v1"); ok {
		t.Errorf("HasVectors(v1) after the upgrade = true, want false")
	}
}

func cosine64(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i])
	}
	return d
}

// memText is what EmbedMissing embeds of memory name.
func memText(t *testing.T, db *DB, name string) string {
	t.Helper()
	var desc, body string
	if err := db.sql.QueryRow("SELECT description, body FROM memories WHERE name = ?", name).Scan(&desc, &body); err != nil {
		t.Fatal(err)
	}
	return EmbedText(desc, body)
}

// TestMissingVectorsOtherModel: after an upgrade that changed the model,
// every memory lacks a vector of this build's model, so that a hook starts
// the worker to embed them again (it counted none, and the vault waited for
// the next session's end).
func TestMissingVectorsOtherModel(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	for _, tt := range []struct {
		model string
		want  int
	}{{"v1", 3}, {"v2", 3}} {
		if n, err := db.MissingVectors(ctx, tt.model); n != tt.want || err != nil {
			t.Errorf("before any embedding, MissingVectors(%s) = %d, %v; want %d", tt.model, n, err, tt.want)
		}
	}
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{model: "v1"}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		model string
		want  int
	}{{"v1", 0}, {"v2", 3}} {
		if n, err := db.MissingVectors(ctx, tt.model); n != tt.want || err != nil {
			t.Errorf("after v1 embedded, MissingVectors(%s) = %d, %v; want %d", tt.model, n, err, tt.want)
		}
	}
}
