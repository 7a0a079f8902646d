package vault

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// MergeIndexBlocks is the merge of MEMORY.md git runs as the driver
// "mnemo": it merges the generated blocks of the base, ours and theirs line
// by memory (one side's new line is kept, a line one side removed goes, a
// line both changed keeps ours) and returns the three texts with that one
// block in each, so that a plain three-way merge of what is left can only
// conflict in the person's own text. The next reindex puts the budget and
// descriptions back as the files say.
func MergeIndexBlocks(base, ours, theirs []byte) (b, o, t []byte) {
	lb, lo, lt := blockLines(base), blockLines(ours), blockLines(theirs)
	names := make(map[string]bool)
	for _, m := range []map[string]indexLine{lo, lt} {
		for n := range m {
			names[n] = true
		}
	}
	var kept []indexLine
	for n := range names {
		if l, ok := mergeLine(lb[n], lo[n], lt[n]); ok {
			kept = append(kept, l)
		}
	}
	slices.SortFunc(kept, func(x, y indexLine) int {
		return cmp.Or(cmp.Compare(headingRank(x.heading), headingRank(y.heading)), cmp.Compare(x.name, y.name))
	})
	var sb strings.Builder
	last := ""
	for _, l := range kept {
		if l.heading != last {
			sb.WriteString(l.heading + "\n")
			last = l.heading
		}
		sb.WriteString(l.text + "\n")
	}
	block := sb.String()
	return withBlock(base, block), withBlock(ours, block), withBlock(theirs, block)
}

// An indexLine is one memory's line in a generated block, under its heading.
type indexLine struct {
	name, heading, text string
}

func (l indexLine) present() bool { return l.text != "" }

// mergeLine merges one memory's line three ways.
func mergeLine(b, o, t indexLine) (indexLine, bool) {
	switch {
	case o.present() && t.present():
		if o.text == b.text {
			return t, true
		}
		return o, true
	case o.present():
		return o, !b.present() || b.text != o.text // theirs removed it unless ours changed it
	case t.present():
		return t, !b.present() || b.text != t.text
	}
	return indexLine{}, false
}

// blockLines returns the memory lines of data's generated block by name.
func blockLines(data []byte) map[string]indexLine {
	out := make(map[string]indexLine)
	_, block, _, found := splitIndex(string(data))
	if !found {
		return out
	}
	heading := "## Other"
	for line := range strings.Lines(block) {
		line = strings.TrimRight(line, "\r\n")
		if headings[line] {
			heading = line
			continue
		}
		if m := entryRE.FindStringSubmatch(line); m != nil && m[1] == m[2] {
			out[m[1]] = indexLine{name: m[1], heading: heading, text: line}
		}
	}
	return out
}

// withBlock returns data with its generated block replaced by block, the
// lines of its own block that mnemo did not generate moved below it (as
// [RenderIndex] moves them), so that they are merged as a person's text;
// text without a block is returned as it is.
func withBlock(data []byte, block string) []byte {
	before, own, after, found := splitIndex(string(data))
	if !found {
		return data
	}
	return []byte(before + beginMarker + "\n" + block + endMarker + "\n" + orphans(own) + after)
}

func headingRank(h string) int {
	for _, t := range memory.Types {
		if group(t) == h {
			return groupRank(t)
		}
	}
	return len(memory.Types)
}
