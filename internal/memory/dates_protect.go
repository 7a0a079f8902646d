package memory

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// A protectedSpan is a part of a text, text[start:end], that AbsoluteDates
// leaves alone.
type protectedSpan struct{ start, end int }

// A protectedSet holds spans sorted by start, none overlapping another.
type protectedSet []protectedSpan

// overlaps reports whether text[start:end] overlaps a span in ps.
func (ps protectedSet) overlaps(start, end int) bool {
	i, _ := slices.BinarySearchFunc(ps, start, func(s protectedSpan, start int) int {
		return cmp.Compare(s.end, start+1) // the first span that ends after start
	})
	return i < len(ps) && ps[i].start < end
}

// protectedPatterns match the parts of a text that are addresses, not prose:
// URLs, Markdown link targets and [[links]].
var protectedPatterns = []*lazyregexp.Regexp{
	lazyregexp.New(`(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.)\S*`),
	lazyregexp.New(`\]\([^)\s]*\)`),
	lazyregexp.New(`\[\[[^\[\]\n]*\]\]`),
}

// protectedSpans returns the parts of text that are not prose: fenced code
// blocks, inline code spans, URLs, Markdown link targets and [[links]].
func protectedSpans(text string) protectedSet {
	ss := append(fencedCodeBlocks(text), inlineCodeSpans(text)...)
	for _, re := range protectedPatterns {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			ss = append(ss, protectedSpan{loc[0], loc[1]})
		}
	}
	slices.SortFunc(ss, func(a, b protectedSpan) int { return cmp.Compare(a.start, b.start) })
	var merged protectedSet
	for _, s := range ss {
		if n := len(merged); n > 0 && s.start <= merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, s.end)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// fencedCodeBlocks returns the code blocks fenced by lines of three or more
// backticks or tildes, fences included. As in CommonMark, a fence may be
// indented by up to three spaces, and a block left open runs to the end.
func fencedCodeBlocks(text string) []protectedSpan {
	var ss []protectedSpan
	fence := "" // the open block's fence; "" outside a block
	open := 0
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n') + start + 1
		if end == start { // the last line has no newline
			end = len(text)
		}
		line := strings.TrimRight(text[start:end], " \t\r\n")
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case len(line)-len(trimmed) > 3:
		case fence == "":
			if f := fenceOf(trimmed); f != "" {
				fence, open = f, start
			}
		case strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "":
			ss = append(ss, protectedSpan{open, end})
			fence = ""
		}
		start = end
	}
	if fence != "" {
		ss = append(ss, protectedSpan{open, len(text)})
	}
	return ss
}

// fenceOf returns the run of three or more backticks or tildes that line
// starts with, or "".
func fenceOf(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := byteRun(line, 0)
	if n < 3 {
		return ""
	}
	return line[:n]
}

// inlineCodeSpans returns the inline code spans of text: each from a run of
// backticks to the next run of the same length. A run with no partner is
// literal text.
func inlineCodeSpans(text string) []protectedSpan {
	var ss []protectedSpan
	unmatched := map[int]bool{} // run lengths with no later run of that length
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := byteRun(text, i)
		end := -1
		if !unmatched[n] {
			end = closingRun(text, i+n, n)
		}
		if end < 0 {
			unmatched[n] = true
			i += n
			continue
		}
		ss = append(ss, protectedSpan{i, end})
		i = end
	}
	return ss
}

// closingRun returns the end of the first run of exactly n backticks in text
// at or after from, or -1.
func closingRun(text string, from, n int) int {
	for j := from; j < len(text); {
		k := strings.IndexByte(text[j:], '`')
		if k < 0 {
			return -1
		}
		j += k
		m := byteRun(text, j)
		if m == n {
			return j + m
		}
		j += m
	}
	return -1
}

// byteRun returns how many times the byte text[i] repeats from i on.
func byteRun(text string, i int) int {
	n := 1
	for i+n < len(text) && text[i+n] == text[i] {
		n++
	}
	return n
}
