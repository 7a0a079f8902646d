package hook

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/project"
)

// fakeModel embeds a text as how much it says of two subjects, releases
// and scripts, scaled to length 1, and counts what it was asked.
type fakeModel struct {
	queries []string
	texts   int
}

var fakeSubjects = [][]string{{"release", "tags", "production", "ship"}, {"script", ".sh", "machine"}}

func (m *fakeModel) vector(text string) []float32 {
	v := []float32{0, 0, 0.1} // no text is all zeros
	for i, words := range fakeSubjects {
		for _, w := range words {
			v[i] += float32(strings.Count(strings.ToLower(text), w))
		}
	}
	var n float32
	for _, x := range v {
		n += x * x
	}
	for i := range v {
		v[i] /= sqrt32(n)
	}
	return v
}

func sqrt32(x float32) float32 {
	z := x
	for range 30 {
		z = (z + x/z) / 2
	}
	return z
}

func (m *fakeModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	m.texts += len(texts)
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = m.vector(t)
	}
	return out, nil
}

func (m *fakeModel) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	m.queries = append(m.queries, text)
	return m.vector(text), nil
}

// TestPromptEmbedsOnlyTheQuery: the prompt hook embeds nothing until the
// vault has vectors (it starts the worker to make them), then embeds the
// prompt alone, and meaning reorders what the words found.
func TestPromptEmbedsOnlyTheQuery(t *testing.T) {
	root, r, out := setup(t)
	dir := filepath.Join(root, ".memory")
	// Both share the prompt's words, the first more of them; the second
	// is nearer its meaning (releases, not scripts).
	writeMemory(t, dir, memory.New(memory.Header{Name: "deploy-script", Description: "Deploy to production with the deploy script",
		Type: memory.TypeProject, Updated: now}, "Run ./deploy.sh from your machine."))
	writeMemory(t, dir, memory.New(memory.Header{Name: "deploy-release", Description: "Deploy to production by pushing release tags",
		Type: memory.TypeProject, Updated: now.Add(-24 * 60 * 60 * 1e9)}, "Pushing release tags makes the release ship."))
	model := &fakeModel{}
	spawned := 0
	r.Semantic = model
	r.Spawn = func(root, state string) error { spawned++; return nil }
	prompt := "how do we deploy to production?"

	run(r, UserPromptSubmit, map[string]any{"session_id": "s1", "cwd": root, "prompt": prompt})
	if len(model.queries) != 0 || model.texts != 0 {
		t.Errorf("without vectors the hook embedded %d queries and %d texts, want none", len(model.queries), model.texts)
	}
	if spawned != 1 {
		t.Errorf("without vectors the hook started the worker %d times, want 1", spawned)
	}
	if got := contextOf(t, out.Bytes()); !before(got, "deploy-script", "deploy-release") {
		t.Fatalf("the words alone injected %q, want deploy-script first", got)
	}

	// What the worker does: embed the vault.
	p, err := project.Find(context.Background(), root, r.Env)
	if err != nil {
		t.Fatal(err)
	}
	db, err := index.Open(context.Background(), filepath.Join(p.StateDir(), index.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EmbedMissing(context.Background(), model, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	embedded := model.texts

	out.Reset()
	run(r, UserPromptSubmit, map[string]any{"session_id": "s2", "cwd": root, "prompt": prompt})
	if model.texts != embedded {
		t.Errorf("the hook embedded %d memory texts, want none", model.texts-embedded)
	}
	if want := []string{"deploy production"}; strings.Join(model.queries, "|") != want[0] {
		t.Errorf("the hook embedded %q, want %q", model.queries, want)
	}
	if got := contextOf(t, out.Bytes()); !before(got, "deploy-release", "deploy-script") {
		t.Errorf("with meaning the hook injected %q, want deploy-release first", got)
	}
}

// before reports whether s holds a, and b only after it.
func before(s, a, b string) bool {
	i, j := strings.Index(s, a), strings.Index(s, b)
	return i >= 0 && (j < 0 || i < j)
}
