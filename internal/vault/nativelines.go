package vault

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// nativeRE matches an index line as Claude Code writes one into MEMORY.md
// for a file it saved: the whole line is a link to the file, with perhaps a
// dash and a short description. A person's sentence that links a memory
// is not one.
var nativeRE = lazyregexp.New(`^\s*[-*] \[[^\]]*\]\((?:\./)?([a-z0-9][a-z0-9-]{0,63})\.md\)(?:\s+[—–:-]\s.*)?\s*$`)

// listedNames are the memories mnemo's block lists: active and reviewed.
func listedNames(entries []Entry) map[string]bool {
	out := make(map[string]bool)
	for _, e := range entries {
		if e.Memory.Active() && e.Memory.Reviewed() {
			out[e.Name] = true
		}
	}
	return out
}

// absorbNative removes from text (MEMORY.md outside mnemo's block) Claude
// Code's own index lines for memories the block lists, so that each
// memory is listed once; every other line stays as it is.
func absorbNative(text string, listed map[string]bool) string {
	if len(listed) == 0 || !strings.Contains(text, ".md)") {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		if m := nativeRE.FindStringSubmatch(strings.TrimRight(line, "\r\n")); m != nil && listed[m[1]] {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

// nativeDuplicates returns the 1-based lines of data, outside mnemo's
// block, that are Claude Code's index lines for a memory the block lists.
func nativeDuplicates(data string, listed map[string]bool) (lines []int, names []string) {
	before, block, _, found := splitIndex(data)
	n := 0
	for line := range strings.Lines(data) {
		n++
		inBlock := found && n > countLines(before) && n <= countLines(before)+countLines(block)+2
		if inBlock {
			continue
		}
		if m := nativeRE.FindStringSubmatch(strings.TrimRight(line, "\r\n")); m != nil && listed[m[1]] {
			lines, names = append(lines, n), append(names, m[1])
		}
	}
	return lines, names
}
