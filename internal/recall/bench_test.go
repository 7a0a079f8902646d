package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
)

// BenchmarkRecall times one query on a vault of 2,000 memories whose words
// are drawn from a small vocabulary, so that queries match many memories.
func BenchmarkRecall(b *testing.B) {
	benchRecall(b, false)
}

// BenchmarkRecallMeaning is BenchmarkRecall with recall by meaning, the
// vault embedded by the built-in model first.
func BenchmarkRecallMeaning(b *testing.B) {
	benchRecall(b, true)
}

func benchRecall(b *testing.B, meaning bool) {
	words := strings.Fields(`auth token session cache redis deploy rollout billing invoice queue
		worker retry postgres migration schema index query handler router middleware test
		fixture golden flaky timeout config secret rotation metrics tracing latency`)
	mems := make([]mem, 2000)
	for i := range mems {
		var body strings.Builder
		for j := range 30 {
			body.WriteString(words[(i*7+j*13+j*j)%len(words)] + " ")
		}
		fmt.Fprintf(&body, "See [[m%04d]].", (i*31)%len(mems))
		mems[i] = mem{fmt.Sprintf("m%04d", i), words[i%len(words)] + " " + words[(i/7)%len(words)] + " notes",
			body.String(), fmt.Sprintf("anchors:\n  files:\n    - path: internal/%s/x.go\n", words[i%9])}
	}
	cfg := DefaultConfig()
	if meaning {
		m, err := embed.Load()
		if err != nil {
			b.Fatal(err)
		}
		cfg.Semantic = m
	}
	e, db := engine(b, cfg, mems...)
	if meaning {
		if _, err := db.EmbedMissing(context.Background(), cfg.Semantic.(*embed.Model), nil); err != nil {
			b.Fatal(err)
		}
	}
	queries := []Query{
		{Text: "why does the deploy rollout retry"},
		{Text: "postgres migration timeout", Files: []string{"internal/auth/x.go"}},
		{Text: "flaky golden test fixture in the router middleware"},
	}
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		q := queries[i%len(queries)]
		q.Now = now
		if _, err := e.Recall(ctx, q); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
