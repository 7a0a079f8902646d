package vault

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// A PlantedLine is a line of MEMORY.md outside mnemo's block that gives the
// agent an instruction git must not vouch for, or holds a secret. Claude
// Code loads all of MEMORY.md as instructions, and git brings the text
// outside the block from anyone; the line may be a person's, so it is
// kept, and shown for review instead of followed.
type PlantedLine struct {
	Line    int    // 1-based, in MEMORY.md
	Problem string // "holds an instruction to …" or "holds a secret (kind)"
}

// PlantedLines returns the planted lines of MEMORY.md's content data, in
// order, at most one finding a line (an instruction before a secret).
func PlantedLines(data []byte) []PlantedLine {
	before, block, after, found := splitIndex(string(data))
	var out []PlantedLine
	out = plantedIn(out, before, 1)
	if found && after != "" {
		out = plantedIn(out, after, countLines(before)+1+countLines(block)+1+1)
	}
	return out
}

// plantedIn adds the planted lines of text, whose first line is line
// first of MEMORY.md, to out.
func plantedIn(out []PlantedLine, text string, first int) []PlantedLine {
	secrets := make(map[int]string)
	for _, f := range redact.Find(text) {
		if _, ok := secrets[f.Line]; !ok {
			secrets[f.Line] = f.Kind
		}
	}
	n := 0
	for line := range strings.Lines(text) {
		n++
		switch k, kind := plantedKind(line), secrets[n]; {
		case k != "":
			out = append(out, PlantedLine{Line: first + n - 1, Problem: "holds an instruction to " + k})
		case kind != "":
			out = append(out, PlantedLine{Line: first + n - 1, Problem: "holds a secret (" + kind + ")"})
		}
	}
	return out
}
