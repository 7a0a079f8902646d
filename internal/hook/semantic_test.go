package hook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/gittest"
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

func (m *fakeModel) ModelID() string { return "fake" }

func (m *fakeModel) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	m.queries = append(m.queries, text)
	return m.vector(text), nil
}

// TestPromptEmbedsOnlyTheQuery: the prompt hook embeds nothing until the
// vault has vectors (it starts the worker to make them), nor when no more
// memories clear the bar than it injects; then it embeds the prompt
// alone, and meaning picks which memories fill the slots.
func TestPromptEmbedsOnlyTheQuery(t *testing.T) {
	root, r, out := setup(t)
	dir := filepath.Join(root, ".memory")
	// All share the prompt's words; the scripts more of them (and are
	// newer), the release is nearer its meaning (releases, not scripts).
	// Each script names its own file, so none repeats another.
	for i, name := range []string{"script-a", "script-b", "script-c"} {
		writeMemory(t, dir, memory.New(memory.Header{Name: "deploy-" + name, Description: "Deploy to production with the deploy " + name,
			Type: memory.TypeProject, Updated: now.Add(-time.Duration(i) * time.Hour)}, "Run ./"+name+".sh from your machine to deploy."))
	}
	writeMemory(t, dir, memory.New(memory.Header{Name: "deploy-release", Description: "Deploy to production by pushing release tags",
		Type: memory.TypeProject, Updated: now.Add(-48 * time.Hour)}, "Pushing release tags makes the release ship."))
	gittest.FromTeammate(t, root, ".memory")
	model := &fakeModel{}
	spawned := 0
	r.Semantic = model
	r.Spawn = func(root, state string) error { spawned++; return nil }
	prompt := "how do we deploy to production?"
	session := 0
	prompted := func() string {
		out.Reset()
		session++
		run(r, UserPromptSubmit, map[string]any{"session_id": fmt.Sprint("s", session), "cwd": root, "prompt": prompt})
		return contextOf(t, out.Bytes())
	}

	got := prompted()
	if len(model.queries) != 0 || model.texts != 0 {
		t.Errorf("without vectors the hook embedded %d queries and %d texts, want none", len(model.queries), model.texts)
	}
	if spawned != 1 {
		t.Errorf("without vectors the hook started the worker %d times, want 1", spawned)
	}
	if strings.Contains(got, "deploy-release") || !strings.Contains(got, "deploy-script-a") {
		t.Fatalf("the words alone injected %q, want the three scripts", got)
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

	got = prompted()
	if model.texts != embedded {
		t.Errorf("the hook embedded %d memory texts, want none", model.texts-embedded)
	}
	if want := "deploy production"; strings.Join(model.queries, "|") != want {
		t.Errorf("the hook embedded %q, want [%q]", model.queries, want)
	}
	if !strings.Contains(got, "deploy-release") {
		t.Errorf("with meaning the hook injected %q, want deploy-release among them", got)
	}

	// With no more clearing memories than slots, nothing is embedded.
	os.Remove(filepath.Join(dir, "deploy-script-c.md"))
	model.queries = nil
	if got = prompted(); len(model.queries) != 0 || !strings.Contains(got, "deploy-release") {
		t.Errorf("with 3 memories clearing the bar the hook embedded %q and injected %q; want nothing embedded, all 3", model.queries, got)
	}
}
