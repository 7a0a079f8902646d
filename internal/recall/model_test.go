package recall

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed"
)

// renamed is the built-in model under another id: the model of another
// build, as the index sees it.
type renamed struct {
	*embed.Model
	id string
}

func (r renamed) ModelID() string { return r.id }

// TestRecallAfterModelChange: after an upgrade whose model differs from
// the one the index's vectors are of, recall ranks by words alone (the
// old vectors are noise to the new model's queries), in Recall and in
// Rerank, until the memories are embedded again with the new model.
func TestRecallAfterModelChange(t *testing.T) {
	ctx := context.Background()
	old := semanticEngine(t)
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	upgraded := *old
	upgraded.cfg.Semantic = renamed{m, "another-model"}
	words := *old
	words.cfg.Semantic = nil
	recalled := func(e *Engine, q string) []string {
		t.Helper()
		rs, err := e.Recall(ctx, Query{Text: q, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = fmt.Sprintf("%s %.6f", r.Name, r.Score)
		}
		return out
	}
	for _, q := range []string{"statistics must be checked", "deploy by hand"} {
		if got, want := recalled(&upgraded, q), recalled(&words, q); !slices.Equal(got, want) {
			t.Errorf("Recall(%q) with another model = %v, want the words' %v", q, got, want)
		}
	}
	base, err := words.Recall(ctx, Query{Text: "deploy by hand", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	rr, err := upgraded.Rerank(ctx, Query{Text: "deploy by hand", Now: now}, base)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rr {
		if rr[i].Score != base[i].Score || slices.ContainsFunc(rr[i].Why.Relevance, func(p Part) bool { return p.Name == "meaning" }) {
			t.Errorf("Rerank with another model: %s scored %v (%v), want the words' %v", rr[i].Name, rr[i].Score, rr[i].Why.Relevance, base[i].Score)
		}
	}

	// Embedded again with the new model, meaning finds the paraphrase.
	if _, err := upgraded.db.EmbedMissing(ctx, renamed{m, "another-model"}, nil); err != nil {
		t.Fatal(err)
	}
	rs, err := upgraded.Recall(ctx, Query{Text: "statistics must be checked", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultNames(rs); !slices.Equal(got, []string{"no-guessing-numbers"}) {
		t.Errorf("Recall after embedding with the new model = %v, want [no-guessing-numbers]", got)
	}
}
