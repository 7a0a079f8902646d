package extract

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/longsession"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// BenchmarkHeuristic runs the heuristic extractor over every labelled
// session, and over the largest real transcript when it is there.
func BenchmarkHeuristic(b *testing.B) {
	var digests []*transcript.Digest
	for _, set := range []string{"eval", "holdout"} {
		files, _ := filepath.Glob(filepath.Join("testdata", set, "*.jsonl"))
		for _, f := range files {
			digests = append(digests, digestFile(b, f))
		}
	}
	real := filepath.Join(realDir(), "ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
	if d, ok := tryDigest(b, real); ok {
		digests = append(digests, d)
	}
	h := NewHeuristic(Config{})
	ctx := context.Background()
	for b.Loop() {
		for _, d := range digests {
			h.Extract(ctx, d)
		}
	}
}

// BenchmarkHeuristicLong runs the heuristic extractor over a long session
// of 20,000 prompts ([longsession]) whose working folder is not on this
// machine, as the worker's offline path does, and reports the facts.
func BenchmarkHeuristicLong(b *testing.B) {
	path := filepath.Join(b.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := longsession.Write(f, longsession.Size{Prompts: 20000}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	d := digestFile(b, path)
	h := NewHeuristic(Config{})
	ctx := context.Background()
	var facts int
	b.ReportAllocs()
	for b.Loop() {
		cands, _, err := h.Extract(ctx, d)
		if err != nil {
			b.Fatal(err)
		}
		facts = len(cands)
	}
	b.ReportMetric(float64(facts), "facts")
}

// TestRequestSizes measures what the model calls of a session cost before
// the reply (the prompt, the digest's chunks, the estimate the cost guard
// checks) and asserts that every real transcript is sent whole under the
// default budgets, each call within a chunk, the prompt and the output.
func TestRequestSizes(t *testing.T) {
	t.Logf("system prompt: %d tokens", memory.EstimateTokens(systemPrompt))
	files, _ := filepath.Glob(filepath.Join(realDir(), "*.jsonl"))
	files = append(files, filepath.Join("testdata", "eval", "decisions.jsonl"))
	cfg := DefaultConfig(func(string) string { return "" })
	perCall := DefaultChunkTokens + DefaultMaxOutputTokens + memory.EstimateTokens(systemPrompt) + 100
	for _, f := range files {
		d := digestFile(t, f)
		reqs, err := Requests(context.Background(), cfg, d)
		if err != nil {
			t.Errorf("%s: %v, want it sent", filepath.Base(f), err)
			continue
		}
		need := 0
		for _, r := range reqs {
			need += r.Tokens
			if r.Tokens > perCall {
				t.Errorf("%s: part %d estimated at %d tokens, over %d", filepath.Base(f), r.Part, r.Tokens, perCall)
			}
		}
		if need > DefaultMaxTokensPerSession {
			t.Errorf("%s: %d tokens for %d calls, over the session budget of %d: its beginning would be left out", filepath.Base(f), need, len(reqs), DefaultMaxTokensPerSession)
		}
		t.Logf("%s: digest %d tokens, %d request(s), guard estimate %d tokens (input and max output)", filepath.Base(f), d.Tokens(), len(reqs), need)
	}
}
