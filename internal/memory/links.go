package memory

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

var linkRE = lazyregexp.New(`\[\[([^\[\]\n|#]+)(?:[|#][^\[\]\n]*)?\]\]`)

// Links returns the targets of the [[name]] links in a markdown body, in
// order of first appearance, once each. [[name|label]] and [[name#part]]
// link to name. Links inside code (fenced blocks and `spans`) are not links.
func Links(body string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, text := range proseSegments(body) {
		for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
			name := strings.TrimSpace(m[1])
			if name != "" && !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// proseSegments returns the parts of a markdown text outside fenced code
// blocks and inline code spans.
func proseSegments(body string) []string {
	var out []string
	fence := ""
	for line := range strings.Lines(body) {
		t := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = t[:3]
			continue
		}
		out = append(out, outsideSpans(line)...)
	}
	return out
}

// outsideSpans splits a line around its `code spans`.
func outsideSpans(line string) []string {
	var out []string
	for {
		i := strings.IndexByte(line, '`')
		if i < 0 {
			return append(out, line)
		}
		j := strings.IndexByte(line[i+1:], '`')
		if j < 0 {
			return append(out, line)
		}
		out = append(out, line[:i])
		line = line[i+1+j+1:]
	}
}
