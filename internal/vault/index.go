package vault

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// Claude Code loads at most this much of MEMORY.md at session start.
const (
	MaxIndexLines = 200
	MaxIndexBytes = 25_000
)

// MaxIndexFile is the most of MEMORY.md mnemo reads: far past what Claude
// Code loads (the text people keep outside mnemo's block counts too), and
// a bound against a MEMORY.md that is a link to /dev/zero.
const MaxIndexFile = memory.MaxFileSize

// maxBytes is what mnemo lets MEMORY.md hold: its share of the budget of
// the context a session starts with ([memory.IndexTokens]; a byte is at
// most a token's quarter), within Claude Code's limit.
const maxBytes = min(MaxIndexBytes, 4*memory.IndexTokens)

const (
	beginMarker = "<!-- mnemo:begin — generated: edit the memory files, then run `mnemo reindex` -->"
	endMarker   = "<!-- mnemo:end -->"
	indexTitle  = "# Memory index"
)

var (
	entryRE    = lazyregexp.New(`^- \[([^\]]+)\]\(([^)]+)\.md\)`)
	overflowRE = lazyregexp.New(`^- … and \d+ more`)
	linkRE     = lazyregexp.New(`^\s*(?:[-*+]|\d+\.)\s.*?\]\((?:\./)?([a-z0-9][a-z0-9-]{0,63})\.md\)`)
	conflictRE = lazyregexp.New(`^(<{7}|={7}|>{7}|\|{7})( |$)`)
	headings   = map[string]bool{"## User": true, "## Feedback": true, "## Project": true, "## Reference": true, "## Other": true}
)

// RenderIndex returns MEMORY.md for the given memories, keeping the text of
// old outside the mnemo:begin/end markers as it is. Inside the markers it
// writes one line per active, reviewed, valid memory ([memory.Memory.Reviewed],
// [memory.Memory.Validate]),
// grouped by type and sorted by name, within its share of the session's
// budget ([memory.IndexTokens]); a line there that mnemo did not
// generate is moved out, below the block, never dropped. Claude Code loads
// all of MEMORY.md as instructions, so a line anywhere in it that links a
// memory no one reviewed (Claude Code adds one for each file it writes) is
// left out: the file stays, and the review lists it. When the file would
// pass that share or Claude Code's load limit ([MaxIndexLines]) it keeps
// user and feedback memories first, then the most confident, then the most
// recently updated, and ends with a line counting the rest. The result depends only on the files, never on one machine's state.
// A git conflict in old is resolved first by keeping both sides' lines
// ([IndexConflict] finds it): what either side wrote is kept.
func RenderIndex(old []byte, entries []Entry) []byte {
	text, _ := unionConflicts(string(old))
	before, block, after, found := splitIndex(text)
	if !found {
		before, after = placeBlock(text)
	}
	unreviewed := make(map[string]bool)
	valid := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if !e.Memory.Reviewed() {
			unreviewed[e.Name] = true
		}
		// What lint calls an error is given to no agent: not listed here
		// (Claude Code loads this file), nor recalled (package index).
		if e.Memory.Validate(e.Name+".md") != nil {
			unreviewed[e.Name] = true
			continue
		}
		valid = append(valid, e)
	}
	entries = valid
	listed := listedNames(entries)
	before = absorbNative(dropLinks(before, unreviewed), listed)
	after = absorbNative(dropLinks(orphans(block)+after, unreviewed), listed)
	budget := budget{
		lines: MaxIndexLines - countLines(before) - countLines(after) - 2,
		bytes: maxBytes - len(before) - len(after) - len(beginMarker) - len(endMarker) - 2,
	}
	var b strings.Builder
	b.WriteString(before)
	b.WriteString(beginMarker + "\n")
	b.WriteString(renderEntries(entries, budget))
	b.WriteString(endMarker + "\n")
	b.WriteString(after)
	return []byte(b.String())
}

// dropLinks removes the lines of text that link one of the named memories
// ("- [x](x.md) — …", however the link text reads).
func dropLinks(text string, names map[string]bool) string {
	if len(names) == 0 || !strings.Contains(text, ".md)") {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		if m := linkRE.FindStringSubmatch(line); m != nil && names[m[1]] {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// splitIndex cuts a MEMORY.md around its generated block. before ends with
// a newline or is empty; block is the text between the marker lines. A
// marker counts only at the start of a line, so that text quoting one (a
// description, say) cannot end the block early.
func splitIndex(s string) (before, block, after string, found bool) {
	begin := markerLine(s, "<!-- mnemo:begin")
	if begin < 0 {
		return s, "", "", false
	}
	rest := s[begin:]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return s[:begin], "", "", true
	}
	body := rest[nl+1:]
	end := markerLine(body, endMarker)
	if end < 0 { // an unclosed block: everything after begin is the block
		return s[:begin], body, "", true
	}
	block, after = body[:end], body[end:]
	if i := strings.IndexByte(after, '\n'); i >= 0 {
		after = after[i+1:]
	} else {
		after = ""
	}
	return s[:begin], block, after, true
}

// markerLine returns the offset of the first line of s that starts with
// marker, or -1.
func markerLine(s, marker string) int {
	for off := 0; off < len(s); {
		line := s[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i+1]
		}
		if strings.HasPrefix(line, marker) {
			return off
		}
		off += len(line)
	}
	return -1
}

// placeBlock decides where a first block goes in a MEMORY.md without
// markers: after its title when it starts with one, else at the top, where
// Claude Code's load limit cannot cut it off.
func placeBlock(s string) (before, after string) {
	if strings.TrimSpace(s) == "" {
		return indexTitle + "\n", ""
	}
	first, rest, _ := strings.Cut(s, "\n")
	if strings.HasPrefix(first, "# ") {
		return first + "\n", rest
	}
	return "", s
}

// orphans returns the lines of a generated block that mnemo did not
// generate ([generated]), each ending in a newline: a person's text, to be
// moved below the block, never dropped.
func orphans(block string) string {
	var b strings.Builder
	for line := range strings.Lines(block) {
		if t := strings.TrimRight(line, "\r\n"); !generated(t) {
			b.WriteString(t + "\n")
		}
	}
	return b.String()
}

// generated reports whether a line inside the block is mnemo's own: a
// heading, a blank line, an entry whose text names its file, or the
// overflow line. Such lines are regenerated; anything else is a person's.
func generated(line string) bool {
	if strings.TrimSpace(line) == "" || headings[line] || overflowRE.MatchString(line) || conflictRE.MatchString(line) ||
		strings.HasPrefix(line, "<!-- mnemo:begin") {
		return true // a lone conflict marker, or a second begin (from a side's block): regenerated
	}
	m := entryRE.FindStringSubmatch(line)
	return m != nil && m[1] == m[2]
}

type budget struct{ lines, bytes int }

// renderEntries writes the block's lines within the budget.
func renderEntries(entries []Entry, room budget) string {
	active := make([]Entry, 0, len(entries))
	for _, e := range entries {
		if e.Memory.Active() && e.Memory.Reviewed() {
			active = append(active, e)
		}
	}
	// Choose which entries to show, by priority, keeping room for the
	// overflow line; then print them grouped and sorted.
	slices.SortStableFunc(active, byPriority)
	overflow := overflowLine(len(active))
	keep := make(map[string]bool)
	fits := room
	fits.bytes -= len(overflow)
	fits.lines--
	groups := make(map[string]bool)
	lines := make(map[string]string, len(active)) // by name: each line is made once
	for _, e := range active {
		lines[e.Name] = entryLine(e)
		cost := budget{lines: 1, bytes: len(lines[e.Name])}
		g := group(e.Memory.Type)
		if !groups[g] {
			cost.lines++
			cost.bytes += len(g) + 1
		}
		if fits.lines < cost.lines || fits.bytes < cost.bytes {
			continue
		}
		fits.lines -= cost.lines
		fits.bytes -= cost.bytes
		groups[g] = true
		keep[e.Name] = true
	}
	if len(keep) == len(active) {
		keep = nil // everything fits, with or without the overflow line's room
	}
	slices.SortFunc(active, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(groupRank(a.Memory.Type), groupRank(b.Memory.Type)), cmp.Compare(a.Name, b.Name))
	})
	var b strings.Builder
	last := ""
	for _, e := range active {
		if keep != nil && !keep[e.Name] {
			continue
		}
		if g := group(e.Memory.Type); g != last {
			b.WriteString(g + "\n")
			last = g
		}
		b.WriteString(lines[e.Name])
	}
	if keep != nil {
		b.WriteString(overflowLine(len(active) - len(keep)))
	}
	return b.String()
}

func overflowLine(n int) string {
	return fmt.Sprintf("- … and %d more not listed here: search them with the mnemo recall tool or `mnemo recall <topic>`\n", n)
}

// entryLine is a memory's line in the block. Its description is
// redacted: a file that arrived through git may hold a secret, and Claude
// Code loads MEMORY.md into the model's context.
func entryLine(e Entry) string {
	d := strings.Join(strings.Fields(redact.String(e.Memory.Description)), " ")
	if utf8.RuneCountInString(d) > memory.MaxDescriptionLen {
		d = string([]rune(d)[:memory.MaxDescriptionLen-1]) + "…"
	}
	if d == "" {
		return fmt.Sprintf("- [%s](%s.md)\n", e.Name, e.Name)
	}
	return fmt.Sprintf("- [%s](%s.md) — %s\n", e.Name, e.Name, d)
}

// byPriority orders entries by how much they matter when the index is
// full: user, then feedback, then the rest; more confident first; newer
// first; then by name.
func byPriority(a, b Entry) int {
	return cmp.Or(
		cmp.Compare(priorityRank(a.Memory.Type), priorityRank(b.Memory.Type)),
		cmp.Compare(b.Memory.Confidence, a.Memory.Confidence),
		b.Memory.Updated.Compare(a.Memory.Updated),
		b.Memory.Created.Compare(a.Memory.Created),
		cmp.Compare(a.Name, b.Name),
	)
}

func priorityRank(t memory.Type) int {
	switch t {
	case memory.TypeUser, memory.TypeFeedback:
		return groupRank(t)
	}
	return 2
}

func groupRank(t memory.Type) int {
	if i := slices.Index(memory.Types, t); i >= 0 {
		return i
	}
	return len(memory.Types)
}

func group(t memory.Type) string {
	if !t.Valid() {
		return "## Other"
	}
	s := string(t)
	return "## " + strings.ToUpper(s[:1]) + s[1:]
}

func countLines(s string) int { return strings.Count(s, "\n") }

// IndexLines returns the lines of a MEMORY.md's generated block that name
// memories (and the overflow line), without headings or blank lines: what
// a hook shows of a vault Claude Code does not load itself.
//
// In a MEMORY.md git left conflicted, each side's block is read: ours
// lines, then those of theirs that ours lacks.
func IndexLines(data []byte) []string {
	ours, theirs, conflicted := sides(string(data))
	if !conflicted {
		return blockEntries(string(data))
	}
	out := blockEntries(ours)
	for _, l := range blockEntries(theirs) {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// blockEntries returns the lines of text's generated block that start an
// entry ("- ").
func blockEntries(text string) []string {
	_, block, _, found := splitIndex(text)
	if !found {
		return nil
	}
	var out []string
	for line := range strings.Lines(block) {
		line = strings.TrimRight(line, "\r\n")
		if strings.HasPrefix(line, "- ") {
			out = append(out, line)
		}
	}
	return out
}

// LineName returns the name of the memory an index line links, or false
// for a line that links none (the overflow line).
func LineName(line string) (string, bool) {
	m := linkRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}
