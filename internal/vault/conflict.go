package vault

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// Conflicted returns the memory files of the folder dir that git left in
// conflict ([memory.ErrConflict]), by file name, for a hook to say so.
func Conflicted(dir string) []string {
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if !isMemoryFile(de.Name()) {
			continue
		}
		data, err := safefile.Read(filepath.Join(dir, de.Name()), memory.MaxFileSize)
		if err != nil || !bytes.Contains(data, []byte("<<<<<<<")) {
			continue
		}
		if _, err := memory.Parse(de.Name(), data); errors.Is(err, memory.ErrConflict) {
			out = append(out, de.Name())
		}
	}
	return out
}

// IndexConflict returns the lines of MEMORY.md's content data from the
// first git conflict marker to the last one closing a conflict, or 0, 0
// when it holds none.
func IndexConflict(data []byte) (first, last int) {
	_, spans := unionConflicts(string(data))
	if len(spans) == 0 {
		return 0, 0
	}
	return spans[0][0], spans[len(spans)-1][1]
}

// unionConflicts resolves the git conflicts in MEMORY.md's text s by
// keeping both sides' lines ([union]). The lines of the common ancestor
// (the diff3 style) go: each side's change of them is kept. Nothing a side
// wrote is lost, and mnemo's own lines (its markers, the memory lines)
// come out twice at worst, which [RenderIndex] regenerates once. It
// returns the text and the 1-based first and last line of each conflict
// it resolved; a conflict that is not closed is left as it is.
func unionConflicts(s string) (string, [][2]int) { return resolveConflicts(s, union) }

// sides returns MEMORY.md's text s as each side of its git conflicts had
// it, or false when it holds none.
func sides(s string) (ours, theirs string, ok bool) {
	ours, spans := resolveConflicts(s, func(o, _ []string) string { return strings.Join(o, "") })
	theirs, _ = resolveConflicts(s, func(_, t []string) string { return strings.Join(t, "") })
	return ours, theirs, len(spans) > 0
}

// resolveConflicts replaces each closed git conflict in s with what
// resolve makes of its two sides' lines (each ending in a newline), and
// returns the text and the 1-based first and last line of each conflict.
func resolveConflicts(s string, resolve func(ours, theirs []string) string) (string, [][2]int) {
	if !strings.Contains(s, "<<<<<<<") {
		return s, nil
	}
	var b strings.Builder
	var spans [][2]int
	var ours, theirs, hunk []string // hunk: the conflict's lines as they are
	side, start, n := 0, 0, 0       // side: 0 outside, 1 ours, 2 base, 3 theirs
	for line := range strings.Lines(s) {
		n++
		t := strings.TrimRight(line, "\r\n")
		marker := conflictRE.MatchString(t)
		switch {
		case side == 0 && marker && strings.HasPrefix(t, "<<<<<<<"):
			side, start, ours, theirs, hunk = 1, n, nil, nil, []string{line}
			continue
		case side == 0:
			b.WriteString(line)
			continue
		}
		hunk = append(hunk, line)
		switch {
		case marker && strings.HasPrefix(t, "|||||||") && side == 1:
			side = 2
		case marker && strings.HasPrefix(t, "=======") && side < 3:
			side = 3
		case marker && strings.HasPrefix(t, ">>>>>>>") && side == 3:
			b.WriteString(resolve(ours, theirs))
			spans = append(spans, [2]int{start, n})
			side = 0
		case side == 1:
			ours = append(ours, withNewline(line))
		case side == 3:
			theirs = append(theirs, withNewline(line))
		}
	}
	if side != 0 { // not closed: as it is
		b.WriteString(strings.Join(hunk, ""))
	}
	return b.String(), spans
}

// union is ours, then the lines of theirs that ours does not hold: a line
// both sides added is kept once, a blank line wherever it is.
func union(ours, theirs []string) string {
	held := make(map[string]bool, len(ours))
	for _, l := range ours {
		held[strings.TrimRight(l, "\r\n")] = true
	}
	var b strings.Builder
	for _, l := range ours {
		b.WriteString(l)
	}
	for _, l := range theirs {
		if t := strings.TrimRight(l, "\r\n"); strings.TrimSpace(t) == "" || !held[t] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// withNewline returns line ending in a newline: the last line of a side
// may lack one, and the next side's first line must not join it.
func withNewline(line string) string {
	if strings.HasSuffix(line, "\n") {
		return line
	}
	return line + "\n"
}
