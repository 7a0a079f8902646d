package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
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

// ResolvedFile is the file of a vault's state folder that notes a git
// conflict in its MEMORY.md that regenerating the index resolved, until a
// person is told ([TakeResolved]).
const ResolvedFile = "index-resolved.json"

// A Resolved is a git conflict in a MEMORY.md that regenerating it
// resolved by keeping both sides' lines ([RenderIndex]).
type Resolved struct {
	Index string `json:"index"` // the MEMORY.md, its path
	First int    `json:"first"` // the 1-based first and last line of the conflicts
	Last  int    `json:"last"`
}

// noteResolved notes, in the vault's state folder, that the MEMORY.md at
// path had conflicts in lines first to last, resolved: whichever process
// regenerated it (a hook, the worker, the MCP server, a command), the
// person is told once ([TakeResolved]). A later resolution replaces the
// note. A note not kept fails nothing: the file is resolved all the same,
// and git's diff shows how.
func (v *Vault) noteResolved(path string, first, last int) {
	state := v.stateDir()
	if state == "" {
		return
	}
	data, err := json.Marshal(Resolved{Index: path, First: first, Last: last})
	if err == nil {
		_ = atomicfile.WriteFile(filepath.Join(state, ResolvedFile), data, 0o644)
	}
}

// maxResolvedFile bounds the note as read.
const maxResolvedFile = 64 << 10

// TakeResolved returns the note of a git conflict in MEMORY.md resolved
// since the last call, for the state folder stateDir, and removes it, so
// that the person is told of each resolution once; ok is false when there
// is none. Of two processes taking it at once, one gets it. A note that
// cannot be removed is not returned (telling it every session would be
// worse than not telling it), nor is one that does not parse; either is
// an error.
func TakeResolved(stateDir string) (r Resolved, ok bool, err error) {
	path := filepath.Join(stateDir, ResolvedFile)
	data, err := safefile.Read(path, maxResolvedFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Resolved{}, false, nil
	}
	if err != nil {
		return Resolved{}, false, fmt.Errorf("vault: the note of a resolved conflict: %w", err)
	}
	if err := os.Remove(path); errors.Is(err, fs.ErrNotExist) {
		return Resolved{}, false, nil // another process took it meanwhile
	} else if err != nil {
		return Resolved{}, false, fmt.Errorf("vault: the note of a resolved conflict: %w", err)
	}
	if err := json.Unmarshal(data, &r); err != nil || r.First <= 0 || r.Index == "" {
		return Resolved{}, false, fmt.Errorf("vault: %s: not a note of a resolved conflict", path)
	}
	return r, true, nil
}
