package embed

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// golden is testdata/golden.json, written by gen/ref/golden.js with the
// reference runtime.
type golden struct {
	Tokens []struct {
		Text string  `json:"text"`
		IDs  []int32 `json:"ids"`
	} `json:"tokens"`
	Vectors []struct {
		Text   string    `json:"text"`
		Vector []float32 `json:"vector"`
	} `json:"vectors"`
}

func readGolden(t testing.TB) golden {
	t.Helper()
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

func mustLoad(t testing.TB) *Model {
	t.Helper()
	m, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTokensGolden(t *testing.T) {
	m := mustLoad(t)
	for _, c := range readGolden(t).Tokens {
		got := m.tok.encode(c.Text)
		if !slices.Equal(got, c.IDs) && !(len(got) == 0 && len(c.IDs) == 0) {
			t.Errorf("encode(%q) = %v, want %v", c.Text, got, c.IDs)
		}
	}
}

func TestTokensCut(t *testing.T) {
	m := mustLoad(t)
	long := ""
	for range 200 {
		long += "deploy "
	}
	if got := len(m.Tokens(long)); got != MaxTokens {
		t.Errorf("len(Tokens(200 words)) = %d, want %d", got, MaxTokens)
	}
}

// TestEmbedGolden compares the built-in model's vectors (int8 and 4-bit
// matrices, see gen/pack) with the reference's float32 ones. All int8,
// they matched to cosine 0.9993 and two texts' similarity to 0.009; with
// the embedding table, the feed-forward, the second attention and the
// pooling matrices in 4 bits (2.8 MB less binary), 0.955 and 0.058, and
// LoCoMo's recall moved within its noise (see gen/pack's defaultQ4). The
// bounds catch a broken packing, which lands far below them.
func TestEmbedGolden(t *testing.T) {
	testGoldenVectors(t, mustLoad(t), 0.95, 0.065)
}

// TestEmbedFullPrecision compares the model packed as float32 (gen/pack
// -f32, not committed: set MNEMO_EMBED_F32 to its path) with the
// reference, which it should match but for float rounding.
func TestEmbedFullPrecision(t *testing.T) {
	path := os.Getenv("MNEMO_EMBED_F32")
	if path == "" {
		t.Skip("MNEMO_EMBED_F32 is not set")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := load(string(b), false, newKernel())
	if err != nil {
		t.Fatal(err)
	}
	testGoldenVectors(t, m, 0.99999, 1e-4)
}

func testGoldenVectors(t *testing.T, m *Model, want, pairDrift float64) {
	g := readGolden(t)
	texts := make([]string, len(g.Vectors))
	for i, c := range g.Vectors {
		texts[i] = c.Text
	}
	got, err := m.Vectors(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	worst, sum := 1.0, 0.0
	for i, c := range g.Vectors {
		if len(got[i]) != Dim {
			t.Fatalf("len(Vectors(%q)) = %d, want %d", c.Text, len(got[i]), Dim)
		}
		cos := Cosine(got[i], c.Vector)
		worst, sum = min(worst, cos), sum+cos
		if cos < want {
			t.Errorf("cosine(Vectors(%q), reference) = %.6f, want >= %v", c.Text, cos, want)
		}
	}
	t.Logf("cosine with the reference: lowest %.6f, mean %.6f over %d texts", worst, sum/float64(len(g.Vectors)), len(g.Vectors))
	// What recall reads is how near two texts are: each pair's similarity
	// stays within pairDrift of the reference's.
	drift := 0.0
	for i := range g.Vectors {
		for j := range i {
			d := math.Abs(Cosine(got[i], got[j]) - Cosine(g.Vectors[i].Vector, g.Vectors[j].Vector))
			drift = max(drift, d)
		}
	}
	if drift > pairDrift {
		t.Errorf("similarity of two texts differs from the reference's by up to %.4f, want <= %v", drift, pairDrift)
	}
	t.Logf("largest difference in the similarity of two texts: %.4f", drift)
}

func TestEmbedAlone(t *testing.T) {
	// A text's vector does not depend on the texts embedded with it.
	m := mustLoad(t)
	ctx := context.Background()
	texts := []string{"How do we ship?", "", "Deploys go through make deploy."}
	all, err := m.Vectors(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one, err := m.Vectors(ctx, []string{text})
		if err != nil {
			t.Fatal(err)
		}
		if cos := Cosine(one[0], all[i]); cos < 0.99999 {
			t.Errorf("cosine(Vectors(%q) alone, in a batch) = %.6f, want 1", text, cos)
		}
		var norm float64
		for _, v := range one[0] {
			norm += float64(v) * float64(v)
		}
		if math.Abs(norm-1) > 1e-4 {
			t.Errorf("|Vectors(%q)|² = %v, want 1", text, norm)
		}
	}
}

func TestEmbedUnreadable(t *testing.T) {
	m := mustLoad(t)
	v, err := m.Embed(context.Background(), []string{"部署通过脚本完成", "Deploys go through make deploy", ""})
	if err != nil {
		t.Fatal(err)
	}
	if v[0] != nil || v[1] == nil || v[2] != nil {
		t.Errorf("Embed(chinese, english, empty) = nil %v, %v, %v; want true, false, true", v[0] == nil, v[1] == nil, v[2] == nil)
	}
}

func TestEmbedCancelled(t *testing.T) {
	m := mustLoad(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Vectors(ctx, []string{"anything"}); err == nil {
		t.Errorf("Vectors(cancelled) = nil error, want one")
	}
}

func TestSimilarityOrder(t *testing.T) {
	// A paraphrase is nearer than a text on another subject.
	m := mustLoad(t)
	v, err := m.Vectors(context.Background(), []string{
		"how do we ship a release",
		"deploys go through make deploy",
		"my cat likes to sleep in the sun",
	})
	if err != nil {
		t.Fatal(err)
	}
	near, far := Cosine(v[0], v[1]), Cosine(v[0], v[2])
	if near <= far {
		t.Errorf("cosine(ship, deploy) = %.3f <= cosine(ship, cat) = %.3f", near, far)
	}
}

func TestShortQuery(t *testing.T) {
	// A Short reads the first tokens of a query and nothing after them.
	l, ctx := NewLazy(), context.Background()
	text := "deploy the release"
	if n := len(mustLoad(t).Tokens(text)); n != 3 {
		t.Fatalf("Tokens(%q) has %d ids, want 3", text, n)
	}
	short, err := l.Short(3).EmbedQuery(ctx, text+" and then tag the build on main")
	if err != nil {
		t.Fatal(err)
	}
	whole, err := l.EmbedQuery(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	if cos := Cosine(short, whole); cos < 0.99999 {
		t.Errorf("cosine(Short(3) of a longer text, the first 3 tokens) = %.6f, want 1", cos)
	}
}
