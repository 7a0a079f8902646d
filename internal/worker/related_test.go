package worker

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// TestRelatedQueryBounded: what a session is recalled for is its first
// relatedQuery bytes, and only that much is put together: a long session's
// words (or, when the person said nothing, its digest) were joined whole,
// then cut (10 MB made for 4 KB kept).
func TestRelatedQueryBounded(t *testing.T) {
	digest := func(kind string, n int) *transcript.Digest {
		b := transcript.NewBuilder(transcript.Options{})
		for i := range n {
			text := fmt.Sprintf("%d: the cart total must retry the coupon service twice %s", i, strings.Repeat("and log it ", 40))
			b.Add(transcript.Entry{Type: kind, UUID: fmt.Sprint("u", i), MessageID: fmt.Sprint("m", i),
				Content: []transcript.Block{{Type: "text", Text: text}}})
		}
		return b.Digest()
	}
	tests := []struct {
		name     string
		d        *transcript.Digest
		fromSaid bool // the query is the person's words, not the digest's start
	}{
		{"long, said", digest("user", 20000), true},
		{"long, nothing said", digest("assistant", 20000), false},
		{"short, said", digest("user", 3), true},
		{"short, nothing said", digest("assistant", 3), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// What the query was when everything was put together.
			whole := tt.d.String()
			if tt.fromSaid {
				var b strings.Builder
				for _, s := range tt.d.Said() {
					b.WriteString(s + "\n")
				}
				whole = b.String()
			}
			want := whole[:min(len(whole), relatedQuery)]

			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			got, _ := relatedQueryOf(tt.d)
			runtime.ReadMemStats(&after)
			if got != want {
				t.Errorf("query = %.80q… (%d bytes), want %.80q… (%d bytes)", got, len(got), want, len(want))
			}
			// The query, the builder's growth to it and one turn rendered.
			if made := after.TotalAlloc - before.TotalAlloc; made > 64<<10 {
				t.Errorf("%d bytes allocated for a query of %d from a text of %d, want at most 64 KiB", made, len(got), len(whole))
			}
		})
	}
}
