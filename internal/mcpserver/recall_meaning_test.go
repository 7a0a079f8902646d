package mcpserver_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
)

// TestRecallByMeaningRepeated: the server recalls by meaning with its
// resident model, and a query asked again (its vector from the server's
// cache) gets the same memories with the same meaning parts.
func TestRecallByMeaningRepeated(t *testing.T) {
	f := newFixture(t, recallVault, semanticEnv+"=1")
	ctx := context.Background()
	db := f.syncedIndex(ctx)
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EmbedMissing(ctx, m, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query   string
		meaning bool // the first result has a meaning part
	}{
		{"which package manager for the frontend", true},
		{"when do releases go out", true},
		{"authentication import rules", true},
		{"部署脚本", false}, // the model cannot read it: words alone
	}
	for _, tt := range tests {
		var first, again recallOut
		f.ok("recall", map[string]any{"query": tt.query}, &first)
		f.ok("recall", map[string]any{"query": tt.query}, &again)
		if !slices.Equal(first.names(), again.names()) || !slices.Equal(meaningParts(first), meaningParts(again)) {
			t.Errorf("recall(%q) again = %v %v, want %v %v", tt.query, again.names(), meaningParts(again), first.names(), meaningParts(first))
		}
		if got := len(first.Memories) > 0 && strings.Contains(first.Memories[0].Why, "meaning "); got != tt.meaning {
			t.Errorf("recall(%q): first result has a meaning part %v, want %v (%v)", tt.query, got, tt.meaning, meaningParts(first))
		}
	}
}

// meaningParts are the meaning parts of each result's why, in order.
func meaningParts(o recallOut) []string {
	var out []string
	for _, m := range o.Memories {
		for p := range strings.SplitSeq(m.Why, "; ") {
			if strings.HasPrefix(p, "meaning ") {
				out = append(out, m.Name+": "+p)
			}
		}
	}
	return out
}

// TestRecallByMeaningAfterAnotherProcess: the server keeps the vault's
// vectors and their mean between calls, and a recall after another
// process wrote them (the worker, 'mnemo reindex') uses what it wrote:
// none when they are of another model now, the same again once they are
// of the server's model again.
func TestRecallByMeaningAfterAnotherProcess(t *testing.T) {
	f := newFixture(t, recallVault, semanticEnv+"=1")
	ctx := context.Background()
	db := f.syncedIndex(ctx)
	const query = "which package manager for the frontend"
	var want []string
	steps := []struct {
		name    string
		m       index.Embedder
		meaning bool // the results have meaning parts
	}{
		{"embedded", standIn{}, true},
		{"embedded again by another model", otherModel{}, false},
		{"embedded by the server's model again", standIn{}, true},
	}
	for _, st := range steps {
		if _, err := db.EmbedMissing(ctx, st.m, nil); err != nil {
			t.Fatal(err)
		}
		var out recallOut
		f.ok("recall", map[string]any{"query": query}, &out)
		got := meaningParts(out)
		if (len(got) > 0) != st.meaning {
			t.Errorf("%s: recall(%q) has meaning parts %v, want some: %v", st.name, query, got, st.meaning)
		}
		if st.meaning && want != nil && !slices.Equal(got, want) {
			t.Errorf("%s: recall(%q) meaning parts = %v, want %v", st.name, query, got, want)
		}
		if st.meaning && want == nil {
			want = got
		}
	}
}

// otherModel is [standIn] under another model's name.
type otherModel struct{ standIn }

func (otherModel) ModelID() string { return "other" }
