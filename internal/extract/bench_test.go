package extract

import (
	"context"
	"path/filepath"
	"testing"

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
	real := filepath.Join("..", "..", "..", "shared", "bench", "transcripts", "ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl")
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

// TestRequestSizes logs what a model call costs before the reply: the
// prompt's tokens and, for each real transcript, the digest's tokens,
// chunks and the estimate the cost guard checks.
func TestRequestSizes(t *testing.T) {
	t.Logf("system prompt: %d tokens", memory.EstimateTokens(systemPrompt))
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "bench", "transcripts", "*.jsonl"))
	files = append(files, filepath.Join("testdata", "eval", "decisions.jsonl"))
	for _, f := range files {
		d := digestFile(t, f)
		chunks := d.Chunks(DefaultChunkTokens)
		need := 0
		for i, c := range chunks {
			need += request{System: systemPrompt, Messages: []message{{Role: "user", Text: digestMessage(c.Text, i+1, len(chunks))}}, MaxTokens: DefaultMaxOutputTokens}.estimate()
		}
		t.Logf("%s: digest %d tokens, %d chunk(s), guard estimate %d tokens (input and max output)", filepath.Base(f), d.Tokens(), len(chunks), need)
	}
}
