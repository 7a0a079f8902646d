package recall

import (
	"slices"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// matchedTerms returns the query words whose stems the word search found
// in a memory, for the explanation.
func matchedTerms(terms, stems []string) []string {
	var out []string
	for _, t := range terms {
		if ws := index.Words(t); len(ws) > 0 && slices.Contains(stems, ws[0]) {
			out = append(out, t)
		}
	}
	return out
}
