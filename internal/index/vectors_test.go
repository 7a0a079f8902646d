package index

import (
	"context"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// wordEmbedder embeds a text as its lower-cased words hashed into 64
// dimensions, scaled to length 1: texts sharing words are near. model is
// its id and salts the hash: two models put a word in different places.
// before, when set, runs at the start of each Embed call.
type wordEmbedder struct {
	model  string
	calls  int
	texts  []string
	before func()
}

func (e *wordEmbedder) ModelID() string { return e.model }

func (e *wordEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.calls++
	e.texts = append(e.texts, texts...)
	if e.before != nil {
		e.before()
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if !strings.Contains(t, "unreadable") {
			out[i] = modelVector(e.model, t)
		}
	}
	return out, nil
}

// wordVector is the vector of t by the wordEmbedder of model "".
func wordVector(t string) []float32 { return modelVector("", t) }

func modelVector(model, t string) []float32 {
	v := make([]float32, 64)
	for _, w := range strings.Fields(strings.ToLower(t)) {
		h := fnv.New32a()
		h.Write([]byte(model))
		h.Write([]byte(strings.Trim(w, ".,:;!?")))
		v[h.Sum32()%64]++
	}
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(max(n, 1)))
	}
	return v
}

// vectorVault writes three memories and syncs them into a new index.
func vectorVault(t *testing.T) (*DB, string) {
	t.Helper()
	db, dir := mustOpen(t), t.TempDir()
	writeFile(t, dir, "deploy.md", memFile("deploy", "Deploys go through make deploy", "Never deploy by hand."))
	writeFile(t, dir, "cat.md", memFile("cat", "The cat sleeps in the sun", "A warm cat."))
	writeFile(t, dir, "tests.md", strings.Replace(memFile("tests", "Tests are table-driven", "Write table-driven tests."),
		"type: project", "type: feedback", 1))
	mustSync(t, db, dir)
	return db, dir
}

func mustSync(t *testing.T, db *DB, dir string) {
	t.Helper()
	if _, err := db.Sync(context.Background(), Source{Name: "project", Dir: dir}); err != nil {
		t.Fatal(err)
	}
}

func nearestNames(t *testing.T, db *DB, q NearQuery) []string {
	t.Helper()
	hits, err := db.Nearest(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return names(t, db, hits)
}

func TestEmbedMissing(t *testing.T) {
	ctx := context.Background()
	db, dir := vectorVault(t)
	if ok, err := hasVectors(ctx, db, ""); err != nil || ok {
		t.Fatalf("HasVectors before embedding = %v, %v; want false", ok, err)
	}
	e := &wordEmbedder{}
	n, err := db.EmbedMissing(ctx, e, nil)
	if err != nil || n != 3 {
		t.Fatalf("EmbedMissing = %d, %v; want 3", n, err)
	}
	if ok, _ := hasVectors(ctx, db, ""); !ok {
		t.Errorf("HasVectors after embedding = false, want true")
	}
	// Nothing left: a second run embeds nothing and calls nobody.
	if n, err := db.EmbedMissing(ctx, e, nil); n != 0 || err != nil || e.calls != 1 {
		t.Errorf("second EmbedMissing = %d, %v after %d calls; want 0, nil after 1", n, err, e.calls)
	}
	q := NearQuery{Vector: wordVector("how do we deploy"), Limit: 2}
	if got := nearestNames(t, db, q); len(got) == 0 || got[0] != "deploy" {
		t.Errorf("Nearest(deploy) = %v, want deploy first", got)
	}

	// An edited memory loses its vector; a removed one too.
	writeFile(t, dir, "cat.md", memFile("cat", "The cat deploys", "Cats deploy."))
	os.Remove(filepath.Join(dir, "tests.md"))
	mustSync(t, db, dir)
	if m, err := db.MissingVectors(ctx, e.ModelID()); err != nil || m != 1 {
		t.Errorf("MissingVectors after an edit = %d, %v; want 1", m, err)
	}
	if got := nearestNames(t, db, NearQuery{Vector: wordVector("cats"), Limit: 5}); !slices.Equal(got, []string{"deploy"}) {
		t.Errorf("Nearest after edit and removal = %v, want [deploy]", got)
	}
	// The next run embeds the edited text, and Nearest sees it.
	if n, err := db.EmbedMissing(ctx, e, nil); n != 1 || err != nil {
		t.Errorf("EmbedMissing after an edit = %d, %v; want 1", n, err)
	}
	if got := nearestNames(t, db, NearQuery{Vector: wordVector("cats deploy"), Limit: 1}); !slices.Equal(got, []string{"cat"}) {
		t.Errorf("Nearest(cats deploy) = %v, want [cat]", got)
	}
}

func TestEmbedMissingUnreadable(t *testing.T) {
	// A memory the model cannot read is embedded once, to no vector.
	ctx := context.Background()
	db, dir := vectorVault(t)
	writeFile(t, dir, "odd.md", memFile("odd", "An unreadable text", "Nothing to read."))
	mustSync(t, db, dir)
	e := &wordEmbedder{}
	if n, err := db.EmbedMissing(ctx, e, nil); err != nil || n != 4 {
		t.Fatalf("EmbedMissing = %d, %v; want 4", n, err)
	}
	if m, _ := db.MissingVectors(ctx, e.ModelID()); m != 0 {
		t.Errorf("MissingVectors = %d, want 0", m)
	}
	if got := nearestNames(t, db, NearQuery{Vector: wordVector("unreadable text"), Limit: 10}); slices.Contains(got, "odd") || len(got) != 3 {
		t.Errorf("Nearest = %v, want the 3 readable memories", got)
	}
}

func TestEmbedMissingSkipsEditedMeanwhile(t *testing.T) {
	// A memory edited while its text is being embedded keeps no vector
	// of the old text.
	ctx := context.Background()
	db, dir := vectorVault(t)
	e := &wordEmbedder{}
	e.before = func() {
		e.before = nil
		writeFile(t, dir, "cat.md", memFile("cat", "A dog now", "Dogs."))
		mustSync(t, db, dir)
	}
	n, err := db.EmbedMissing(ctx, e, nil)
	if err != nil || n != 2 {
		t.Fatalf("EmbedMissing = %d, %v; want 2 (the edited memory left out)", n, err)
	}
	if m, _ := db.MissingVectors(ctx, e.ModelID()); m != 1 {
		t.Errorf("MissingVectors = %d, want 1", m)
	}
}

func TestNearestAmongAndTypes(t *testing.T) {
	ctx := context.Background()
	db, _ := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil); err != nil {
		t.Fatal(err)
	}
	all, err := db.Nearest(ctx, NearQuery{Vector: wordVector("tests deploy cat"), Limit: 10})
	if err != nil || len(all) != 3 {
		t.Fatalf("Nearest = %v, %v; want 3 hits", all, err)
	}
	tests := []struct {
		name string
		q    NearQuery
		want []string
	}{
		{"among", NearQuery{Among: []int64{all[0].ID, 9999}}, names(t, db, all[:1])},
		{"among none", NearQuery{Among: []int64{}}, nil},
		{"type", NearQuery{Filter: Filter{Types: []memory.Type{memory.TypeFeedback}}}, []string{"tests"}},
	}
	for _, tt := range tests {
		tt.q.Vector, tt.q.Limit = wordVector("tests deploy cat"), 10
		if got := nearestNames(t, db, tt.q); !slices.Equal(got, tt.want) && len(got)+len(tt.want) > 0 {
			t.Errorf("%s: Nearest = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEmbedText(t *testing.T) {
	tests := []struct{ desc, body, want string }{
		{"Deploys use make", "Run `make deploy`.\nSee [[ci]].", "Deploys use make Run `make deploy`. See ."},
		{"Caroline went to a group", "Caroline: Caroline went  to a group\n\nContext: [[d1-2]]", "Caroline: Caroline went to a group Context:"},
		{"Only a description", "", "Only a description"},
		{"", "Only a body", "Only a body"},
	}
	for _, tt := range tests {
		if got := EmbedText(tt.desc, tt.body); got != tt.want {
			t.Errorf("EmbedText(%q, %q) = %q, want %q", tt.desc, tt.body, got, tt.want)
		}
	}
}

// TestVectorRoundTrip: a vector as stored and as kept in memory is the
// vector, to the int8 rounding; one of another length than the first
// kept, or empty, is left out.
func TestVectorRoundTrip(t *testing.T) {
	v := wordVector("some words here and there")
	var vs vectorSet
	vs.add(1, 0, encodeVector(v))
	vs.add(2, 0, encodeVector(v[:3]))
	vs.add(3, 0, encodeVector(nil))
	if len(vs.ids) != 1 {
		t.Fatalf("kept %v, want [1]", vs.ids)
	}
	got := vs.vector(0)
	for i := range v {
		if d := math.Abs(float64(got[i] - v[i])); d > 1.0/127 {
			t.Errorf("decode(encode(v))[%d] = %v, want %v", i, got[i], v[i])
		}
	}
}

// TestMeanVector: EmbedMissing leaves the mean of the vectors, so that a
// query's similarity to it is its mean similarity to the memories; an
// unreadable memory, which has no vector, counts for nothing.
func TestMeanVector(t *testing.T) {
	ctx := context.Background()
	db, dir := vectorVault(t)
	if m, err := meanVector(ctx, db, ""); m != nil || err != nil {
		t.Fatalf("MeanVector before embedding = %v, %v; want nil", m, err)
	}
	writeFile(t, dir, "odd.md", memFile("odd", "An unreadable text", "Nothing to read."))
	mustSync(t, db, dir)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil); err != nil {
		t.Fatal(err)
	}
	mean, err := meanVector(ctx, db, "")
	if err != nil || len(mean) != 64 {
		t.Fatalf("MeanVector = %d values, %v; want 64", len(mean), err)
	}
	q := wordVector("deploy cat tests")
	hits, err := db.Nearest(ctx, NearQuery{Vector: q, Limit: 10})
	if err != nil || len(hits) != 3 {
		t.Fatalf("Nearest = %v, %v; want 3 hits", hits, err)
	}
	var want, got float64
	for _, h := range hits {
		want += h.Score / 3
	}
	for i, x := range q {
		got += float64(x * mean[i])
	}
	if math.Abs(got-want) > 1e-3 {
		t.Errorf("query · MeanVector = %.4f, want the mean similarity %.4f", got, want)
	}

	// A run stopped after its last batch, before the mean: the next run,
	// with nothing to embed, writes it.
	if _, err := db.sql.ExecContext(ctx, "DELETE FROM vector_mean"); err != nil {
		t.Fatal(err)
	}
	if n, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil); n != 0 || err != nil {
		t.Fatalf("EmbedMissing with nothing missing = %d, %v; want 0, nil", n, err)
	}
	if m, err := meanVector(ctx, db, ""); len(m) != 64 || err != nil {
		t.Errorf("MeanVector after a run with nothing to embed = %d values, %v; want 64", len(m), err)
	}
}

// TestNearestAmongKept: Among gives the same hits from the vectors kept in
// memory (a server, after a search of them all) as from the file (a hook),
// each memory once, and never a vector the file no longer has.
func TestNearestAmongKept(t *testing.T) {
	ctx := context.Background()
	db, dir := vectorVault(t)
	if _, err := db.EmbedMissing(ctx, &wordEmbedder{}, nil); err != nil {
		t.Fatal(err)
	}
	q := NearQuery{Vector: wordVector("tests deploy cat"), Limit: 10}
	all, err := db.Nearest(ctx, q)
	if err != nil || len(all) != 3 {
		t.Fatalf("Nearest = %v, %v; want 3 hits", all, err)
	}
	q.Among = []int64{all[2].ID, 9999, all[0].ID, all[2].ID}
	kept, err := db.Nearest(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	db.vmu.Lock()
	db.vstate = nil
	db.vmu.Unlock()
	read, err := db.Nearest(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b Hit) bool { return a.ID == b.ID && a.Score == b.Score }
	if want := []Hit{all[0], all[2]}; !slices.EqualFunc(kept, want, same) || !slices.EqualFunc(read, want, same) {
		t.Errorf("Nearest among = %v kept, %v read; want %v", kept, read, want)
	}

	// An edit drops the memory's vector: the kept set, read before, has it.
	if _, err := db.Nearest(ctx, NearQuery{Vector: q.Vector, Limit: 1}); err != nil {
		t.Fatal(err)
	}
	name := names(t, db, all[:1])[0]
	writeFile(t, dir, name+".md", memFile(name, "Edited", "Edited."))
	mustSync(t, db, dir)
	if got := nearestNames(t, db, q); !slices.Equal(got, names(t, db, all[2:])) {
		t.Errorf("Nearest among after %s was edited = %v, want %v", name, got, names(t, db, all[2:]))
	}
}

// hasVectors and meanVector are what [DB.Vectors] of model says now.
func hasVectors(ctx context.Context, db *DB, model string) (bool, error) {
	v, err := db.Vectors(ctx, model)
	if err != nil {
		return false, err
	}
	return v.Has(), nil
}

func meanVector(ctx context.Context, db *DB, model string) ([]float32, error) {
	v, err := db.Vectors(ctx, model)
	if err != nil {
		return nil, err
	}
	return v.Mean(), nil
}
