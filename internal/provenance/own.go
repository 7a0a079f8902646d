package provenance

import "strings"

// OwnLines returns the lines of text a person wrote, trimmed, without what
// they pasted: a fenced code block, an indented line, a quoted line ("> …")
// or a table row is an empty line (a paragraph break), as is a blank one.
// What a person pastes (a README, a page, a log they ask about) is theirs
// to show, not theirs to say.
func OwnLines(text string) []string {
	var out []string
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") ||
			strings.HasPrefix(trimmed, ">") || strings.HasPrefix(trimmed, "|") {
			trimmed = ""
		}
		out = append(out, trimmed)
	}
	return out
}
