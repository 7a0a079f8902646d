package consolidate

import (
	"iter"
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

// Thresholds of similarity between a candidate and an existing memory or a
// rejected draft. Similarity alone never makes two statements one fact: the
// values must agree too (see [relate]).
const (
	duplicateAt  = 0.75 // the same fact said again, when the values agree
	paraphraseAt = 0.40 // a rewording of a rejected fact that names the same values
	extendSimAt  = 0.40 // close enough for an extension
	topicAt      = 0.25 // the same topic: enough for a contradiction
	extendAt     = 0.95 // of a memory's words, the share an extension keeps: all of a short one
)

// words are a text's content words, stemmed, for similarity.
func words(s string) map[string]bool {
	out := map[string]bool{}
	for w := range contentWords(s) {
		out[w] = true
	}
	return out
}

// contentWords yields the words of s (runs of letters and digits, as the
// index cuts them), lower-cased and stemmed, stop words left out.
func contentWords(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			w = strings.ToLower(w)
			if !recall.IsStopWord(w) && !yield(stem(w)) {
				return
			}
		}
	}
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

// containment is the share of a's words that b has.
func containment(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}
