package recall

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A Packed result is a memory as it fits in a token budget.
type Packed struct {
	Result
	Full   bool // the body is included, not only the description line
	Tokens int  // what it costs, by [memory.EstimateTokens]
}

// Line is a result's one-line form: its name and its description.
func Line(r Result) string {
	return "- " + r.Name + " — " + r.Description
}

// Text is a result's full form: its line, then its body.
func Text(r Result) string {
	body := strings.TrimSpace(r.Body)
	if body == "" {
		return Line(r)
	}
	return Line(r) + "\n" + body
}

// Pack fits results (best first) into budget tokens: whole memories in
// order of score until the next one does not fit, then description lines
// only, for as many as fit. A budget of 0 or less packs every result whole.
func Pack(results []Result, budget int) []Packed {
	out := make([]Packed, 0, len(results))
	left, bodies := budget, true
	for _, r := range results {
		full := memory.EstimateTokens(Text(r)) + 1 // the newline after it
		if budget <= 0 {
			out = append(out, Packed{Result: r, Full: true, Tokens: full})
			continue
		}
		if bodies && full <= left {
			out = append(out, Packed{Result: r, Full: true, Tokens: full})
			left -= full
			continue
		}
		bodies = false
		line := memory.EstimateTokens(Line(r)) + 1
		if line > left {
			continue // a shorter line further down may still fit
		}
		out = append(out, Packed{Result: r, Tokens: line})
		left -= line
	}
	return out
}
