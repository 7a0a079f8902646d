package recall

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// matchedTerms returns the query words a memory contains, comparing light
// stems, for the explanation; the search itself uses the index's stemmer.
func matchedTerms(terms []string, d *index.Doc) []string {
	have := make(map[string]bool)
	for _, text := range []string{d.Name, d.Description, d.Body, strings.Join(d.Tags, " "), strings.Join(d.Files, " ")} {
		for w := range words(text) {
			have[lightStem(w)] = true
		}
	}
	var out []string
	for _, t := range terms {
		if have[lightStem(t)] {
			out = append(out, t)
		}
	}
	return out
}

// lightStem strips the commonest English inflections, enough to see that
// "indexes" and "indexing" are the word "index".
func lightStem(w string) string {
	for _, s := range []struct{ suffix, repl string }{
		{"ies", "y"}, {"sses", "ss"}, {"ing", ""}, {"ed", ""}, {"es", ""}, {"s", ""},
	} {
		if strings.HasSuffix(w, s.suffix) && len(w)-len(s.suffix) >= 3 && !strings.HasSuffix(w, "ss") {
			return w[:len(w)-len(s.suffix)] + s.repl
		}
	}
	return w
}
