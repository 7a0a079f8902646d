package worker

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// TestPassagesReadDigestOnce: the passages of a job's facts (what review
// shows each came from) are found in one reading of the digest. Each
// fact's passage rendered every turn and split every line again: up to
// maxFactsPerJob renderings of a long session's digest for one job.
func TestPassagesReadDigestOnce(t *testing.T) {
	b := transcript.NewBuilder(transcript.Options{})
	for i := range 2000 {
		text := fmt.Sprintf("turn %d: the cart total must retry the coupon service %s", i, strings.Repeat("and log every attempt ", 10))
		b.Add(transcript.Entry{Type: "user", UUID: fmt.Sprint("u", i), MessageID: fmt.Sprint("m", i),
			Content: []transcript.Block{{Type: "text", Text: text}}})
	}
	d := b.Digest()
	size := len(d.String())
	tests := []struct {
		name  string
		facts int
	}{
		{"one fact", 1},
		{"a job's facts", maxFactsPerJob},
		{"a job's facts, some with an excerpt", maxFactsPerJob},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			facts := make([]consolidate.Fact, tt.facts)
			for i := range facts {
				facts[i] = consolidate.Fact{Description: fmt.Sprintf("turn %d retries the coupon service", i*17), Body: "The cart total retries it."}
				if strings.Contains(tt.name, "excerpt") && i%2 == 0 {
					facts[i].Excerpt = "given"
				}
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got := passages(d, facts)
			runtime.ReadMemStats(&after)
			for i, f := range facts {
				want := ""
				if f.Excerpt == "" {
					want = d.Passage(f.Description+"\n"+f.Body, consolidate.MaxExcerpt)
				}
				if got[i] != want {
					t.Errorf("fact %d: passage %q, want %q", i, got[i], want)
				}
			}
			t.Logf("%d facts: %d bytes allocated, digest %d (%.2fx)", tt.facts, after.TotalAlloc-before.TotalAlloc, size, float64(after.TotalAlloc-before.TotalAlloc)/float64(size))
			// The digest rendered a turn at a time, its lines split and
			// lower-cased once: a few times its size, not once a fact.
			if made := after.TotalAlloc - before.TotalAlloc; made > uint64(4*size) {
				t.Errorf("%d facts: %d bytes allocated for a digest of %d, want at most 4x it (%d)", tt.facts, made, size, 4*size)
			}
		})
	}
}
