package consolidate

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

// Thresholds of lexical similarity (Jaccard over content words) between a
// candidate and an existing memory.
const (
	duplicateAt  = 0.75 // the same fact said again
	refinementAt = 0.40 // the same topic, said better or with more
	topicAt      = 0.25 // the same topic: enough for a contradiction
)

// words are a text's content words, for similarity.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, t := range recall.Terms(s) {
		out[stem(t)] = true
	}
	return out
}

// stem is a light stemmer: enough that "uses" and "use" count as one word.
func stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// jaccard is |a ∩ b| / |a ∪ b|.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// negations mark a statement that forbids or reverses something.
var negations = []string{"never", "don't", "dont", "do not", "not ", "no longer", "instead of", "stop ", "avoid", "isn't", "aren't", "won't", "mustn't", "shouldn't"}

func negated(s string) bool {
	s = " " + strings.ToLower(s) + " "
	for _, n := range negations {
		if strings.Contains(s, " "+n) {
			return true
		}
	}
	return false
}

// contradicts reports whether two statements on one topic disagree: one
// forbids or reverses what the other states.
func contradicts(a, b string) bool { return negated(a) != negated(b) }
