package recall

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed"
)

var semanticMems = []mem{
	{"no-guessing-numbers", "Never state a figure without verifying it", "Cite where each number comes from.", "type: feedback\n"},
	{"cat-naps", "The cat sleeps in the sun", "A warm windowsill.", ""},
	{"deploy", "Deploys go through make deploy", "Never deploy by hand.", ""},
	{"chinese-note", "部署通过脚本完成", "部署脚本在仓库根目录", ""},
	{"time-parse", "Timestamps go through parseRFC3339Nano", "See `internal/memory/dates.go`.", ""},
}

// semanticEngine indexes semanticMems with their vectors and returns an
// engine recalling by meaning with the built-in model.
func semanticEngine(t *testing.T) *Engine {
	t.Helper()
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.Semantic = m
	e, db := engine(t, cfg, semanticMems...)
	if _, err := db.EmbedMissing(context.Background(), m, nil); err != nil {
		t.Fatal(err)
	}
	return e
}

func TestRecallByMeaning(t *testing.T) {
	e := semanticEngine(t)
	words := *e
	words.cfg.Semantic = nil
	tests := []struct {
		name  string
		e     *Engine
		query string
		want  []string
	}{
		// No word in common: only meaning finds them.
		{"paraphrase", e, "statistics must be checked", []string{"no-guessing-numbers"}},
		{"paraphrase 2", e, "kitten napping", []string{"cat-naps"}},
		{"paraphrase, words alone", &words, "statistics must be checked", []string{}},
		// A query on another subject gets nothing on meaning alone.
		{"other subject", e, "quarterly tax filing deadline", []string{}},
		// Text the model cannot read is left to the words and substrings.
		{"chinese", e, "部署脚本", []string{"chinese-note"}},
	}
	for _, tt := range tests {
		rs, err := tt.e.Recall(context.Background(), Query{Text: tt.query, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if got := resultNames(rs); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Recall(%q) = %v, want %v", tt.name, tt.query, got, tt.want)
		}
	}
}

// TestMeaningOnlyAdds: with meaning, a memory the words found keeps its
// word part and gains a meaning part; a query the model cannot read gets
// exactly the scores of the words alone.
func TestMeaningOnlyAdds(t *testing.T) {
	e := semanticEngine(t)
	words := *e
	words.cfg.Semantic = nil
	ctx := context.Background()
	for _, q := range []string{"deploy by hand", "部署脚本"} {
		with, err := e.Recall(ctx, Query{Text: q, Now: now})
		if err != nil {
			t.Fatal(err)
		}
		without, err := words.Recall(ctx, Query{Text: q, Now: now})
		if err != nil || len(with) == 0 || len(without) == 0 {
			t.Fatalf("Recall(%q) = %v, %v, %v", q, resultNames(with), resultNames(without), err)
		}
		parts := func(r Result) string {
			var s []string
			for _, p := range r.Why.Relevance {
				s = append(s, p.Name)
			}
			return strings.Join(s, "+")
		}
		readable := q == "deploy by hand"
		switch {
		case readable && parts(with[0]) != parts(without[0])+"+meaning":
			t.Errorf("Recall(%q)[0] parts = %s, want %s+meaning", q, parts(with[0]), parts(without[0]))
		case readable && with[0].Score <= without[0].Score:
			t.Errorf("Recall(%q)[0] score with meaning %.3f <= %.3f without", q, with[0].Score, without[0].Score)
		case !readable && (with[0].Score != without[0].Score || parts(with[0]) != parts(without[0])):
			t.Errorf("Recall(%q)[0] = %s %.3f with meaning, %s %.3f without; want the same", q,
				parts(with[0]), with[0].Score, parts(without[0]), without[0].Score)
		}
	}
}

// TestRerank: reranking what the words found gives each result the
// meaning part Recall would, and finds nothing new.
func TestRerank(t *testing.T) {
	e := semanticEngine(t)
	words := *e
	words.cfg.Semantic = nil
	ctx := context.Background()
	q := Query{Text: "never deploy a figure by hand", Now: now}
	byWords, err := words.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	reranked, err := e.Rerank(ctx, q, byWords)
	if err != nil {
		t.Fatal(err)
	}
	full, err := e.Recall(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, r := range full {
		want[r.Name] = r.Score
	}
	if len(reranked) != len(byWords) {
		t.Fatalf("Rerank returned %v, want the %d results it was given", resultNames(reranked), len(byWords))
	}
	for _, r := range reranked {
		if w, ok := want[r.Name]; !ok || math.Abs(w-r.Score) > 1e-4 {
			t.Errorf("Rerank: %s scores %.4f, Recall with meaning %.4f", r.Name, r.Score, w)
		}
	}
	// Without an embedder, results come back as they were.
	same, err := words.Rerank(ctx, q, byWords)
	if err != nil || !slices.Equal(resultNames(same), resultNames(byWords)) {
		t.Errorf("Rerank without an embedder = %v, %v; want %v", resultNames(same), err, resultNames(byWords))
	}
}

func TestMeaningText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"When did Caroline go to the LGBTQ support group?", "caroline go lgbtq support group"},
		{"how do we ship?", "ship"},
		{"what is it?", ""},
		{"", ""},
		{"deploy deploy Deploy", "deploy"},
	}
	for _, tt := range tests {
		if got := MeaningText(tt.in); got != tt.want {
			t.Errorf("MeaningText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMeaningNeverLowers: meaning only adds evidence. Every memory the
// words find keeps at least its score with meaning, whatever the query:
// English, a script the model cannot read, code identifiers, a mix.
func TestMeaningNeverLowers(t *testing.T) {
	e := semanticEngine(t)
	words := *e
	words.cfg.Semantic = nil
	ctx := context.Background()
	for _, q := range []string{"deploy by hand", "部署脚本", "make deploy", "parseRFC3339Nano deploy.sh", "部署 deploy", "hand", "warm tax filing", "sun quarterly invoices", "figure skating"} {
		with, err := e.Recall(ctx, Query{Text: q, Now: now, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		without, err := words.Recall(ctx, Query{Text: q, Now: now, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		score := map[string]float64{}
		for _, r := range with {
			score[r.Name] = r.Score
		}
		for _, r := range without {
			if got, ok := score[r.Name]; !ok || got < r.Score-1e-9 {
				t.Errorf("Recall(%q): %s scores %.4f with meaning (found %v), %.4f by words", q, r.Name, got, ok, r.Score)
			}
		}
	}
}
