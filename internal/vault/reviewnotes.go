package vault

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// Text outside mnemo's block in MEMORY.md has no header, no source and no
// inbox, and Claude Code loads it every session as it is: a false "fact"
// there (a commit's, an agent's Write, anyone's) reaches the model with
// nothing to say that no one checked it. git vouches for none of it: a
// teammate's memory file comes through mnemo's door and is given fenced,
// dated and recallable, while a line here is given bare. So a line there
// is a note no one reviewed until the person reviews it on this machine
// ([Vault.ApproveNotes]): mnemo keeps the SHA-256 of each line they
// reviewed in the state folder (notesFile), and a line whose text is one
// of those is theirs wherever it moves. The lines are never changed nor
// removed by this: they are named (to the agent, to the person, by the
// inbox and doctor) until reviewed.

// notesFile lists the SHA-256 of each line outside mnemo's block that the
// person reviewed, one hex digest a line, appended.
const notesFile = "notes-reviewed.sha256"

// A Note is a line of MEMORY.md outside mnemo's block.
type Note struct {
	Line int    `json:"line"` // 1-based, in MEMORY.md
	Text string `json:"text"` // as written, without its line's end
}

// Notes returns the lines of MEMORY.md's content data outside mnemo's
// block that say something: not blank, not mnemo's title, not one
// [PlantedLines] names (those are not to be followed at all), in order.
func Notes(data []byte) []Note {
	planted := make(map[int]bool)
	for _, p := range PlantedLines(data) {
		planted[p.Line] = true
	}
	before, block, _, found := splitIndex(string(data))
	first, last := countLines(before)+1, countLines(before)+countLines(block)+2 // the markers' lines
	var out []Note
	n := 0
	for line := range strings.Lines(string(data)) {
		n++
		text := strings.TrimRight(line, "\r\n")
		t := strings.TrimSpace(text)
		if found && n >= first && n <= last || t == "" || t == indexTitle || planted[n] {
			continue
		}
		out = append(out, Note{Line: n, Text: text})
	}
	return out
}

// UnreviewedNotes returns the notes of the vault's MEMORY.md ([Notes])
// that the person has not reviewed on this machine. A vault without a
// state folder (a mount) has reviewed none. No MEMORY.md has none.
func (v *Vault) UnreviewedNotes() ([]Note, error) {
	data, err := safefile.Read(filepath.Join(v.Dir, IndexFile), MaxIndexFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vault: read %s: %w", IndexFile, err)
	}
	notes := Notes(data)
	if len(notes) == 0 {
		return nil, nil
	}
	reviewed, err := v.reviewedNotes()
	if err != nil {
		return notes, err
	}
	var out []Note
	for _, n := range notes {
		if !reviewed[noteDigest(n.Text)] {
			out = append(out, n)
		}
	}
	return out, nil
}

// ApproveNotes records that the person reviewed the lines outside
// mnemo's block of MEMORY.md as they are now (planted ones aside: they
// stay named until a person removes them), and returns them.
func (v *Vault) ApproveNotes() ([]Note, error) {
	notes, err := v.UnreviewedNotes()
	if err != nil || len(notes) == 0 {
		return nil, err
	}
	if v.stateDir() == "" {
		return nil, errors.New("vault: no state folder to keep the review of MEMORY.md's notes in")
	}
	var b strings.Builder
	for _, n := range notes {
		b.WriteString(noteDigest(n.Text) + "\n")
	}
	if err := os.MkdirAll(v.stateDir(), 0o755); err != nil {
		return nil, fmt.Errorf("vault: record the review of MEMORY.md's notes: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(v.stateDir(), notesFile), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("vault: record the review of MEMORY.md's notes: %w", err)
	}
	_, err = f.WriteString(b.String()) // one write of whole lines: writers interleave lines, never bytes
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("vault: record the review of MEMORY.md's notes: %w", err)
	}
	return notes, nil
}

// reviewedNotes returns the digests of the lines the person reviewed.
func (v *Vault) reviewedNotes() (map[string]bool, error) {
	out := make(map[string]bool)
	if v.stateDir() == "" {
		return out, nil
	}
	data, err := safefile.Read(filepath.Join(v.stateDir(), notesFile), maxWrittenFile)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("vault: read the review of MEMORY.md's notes: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		if d := sc.Text(); len(d) == sha256.Size*2 {
			out[d] = true
		}
	}
	return out, nil
}

// noteDigest is the digest of a note's text, its spaces at either end
// aside: a line re-indented is the same note.
func noteDigest(text string) string {
	sum := sha256.Sum256([]byte(strings.TrimSpace(text)))
	return hex.EncodeToString(sum[:])
}
