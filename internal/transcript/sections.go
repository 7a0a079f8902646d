package transcript

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// headingRE is a line that opens a section of a long text: a numbered or
// markdown heading ("4. Errors and fixes:", "## Pending"), or a short
// label ending with a colon ("Analysis:").
var headingRE = lazyregexp.New(`^(?:\d{1,2}\.|#{1,6})\s+\S|^[A-Z][\w /&-]{0,40}:$`)

// cutSections shortens s to about limit characters section by section: the
// sections that fit under a common size stay whole and only the larger
// ones are cut (each keeping its head and tail, see [Elide]). A compaction
// summary thus keeps its short sections (errors and fixes, the user's
// messages, pending work) and loses the middle of its long ones (code).
// A text without sections is cut as Elide cuts it.
func cutSections(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	secs := splitSections(s)
	if len(secs) < 2 {
		return Elide(s, limit)
	}
	lens := make([]int, len(secs))
	for i, sec := range secs {
		lens[i] = utf8.RuneCountInString(sec) + 1
	}
	level := fillLevel(lens, limit)
	for i, sec := range secs {
		if lens[i] > level {
			secs[i] = Elide(sec, max(level-cutMarkRunes, minSectionRunes))
		}
	}
	return strings.Join(secs, "\n")
}

// cutMarkRunes is about the length of the line Elide puts in a cut.
const cutMarkRunes = 28

// minSectionRunes is the least a cut section keeps.
const minSectionRunes = 120

// splitSections splits s into sections, each starting at a heading line;
// text before the first heading is a section of its own.
func splitSections(s string) []string {
	var secs []string
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if headingRE.MatchString(line) && b.Len() > 0 {
			secs = append(secs, strings.TrimRight(b.String(), "\n"))
			b.Reset()
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if b.Len() > 0 {
		secs = append(secs, strings.TrimRight(b.String(), "\n"))
	}
	return secs
}

// fillLevel returns the size c such that the sizes, each capped at c, add
// up to total: the sections smaller than c are kept whole.
func fillLevel(sizes []int, total int) int {
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	rest, left := total, len(sorted)
	for _, n := range sorted {
		if n*left > rest {
			break
		}
		rest -= n
		left--
	}
	if left == 0 {
		return total
	}
	return rest / left
}
