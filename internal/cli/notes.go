package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// notesName is the name 'mnemo approve' takes for the lines of MEMORY.md
// outside mnemo's block: no memory's name can be it.
const notesName = vault.IndexFile

// maxNoteChars is how much of a note 'mnemo inbox' shows.
const maxNoteChars = 120

// notesReview is why an unreviewed note of MEMORY.md is listed.
const notesReview = "not reviewed: a line outside mnemo's block, which the agent may load as fact"

// unreviewedNotes returns the notes of the project's MEMORY.md no one
// reviewed ([vault.Vault.UnreviewedNotes]); none when the vault cannot be
// opened (the caller says that elsewhere).
func (f *Factory) unreviewedNotes() ([]vault.Note, error) {
	v, err := f.Vault(false)
	if err != nil {
		return nil, nil
	}
	return v.UnreviewedNotes()
}

// printNotes writes a line per unreviewed note: where it is, what it says
// (redacted: no one reviewed it) and why it is listed.
func printNotes(w io.Writer, notes []vault.Note) {
	for _, n := range notes {
		text := redact.String(strings.TrimSpace(n.Text))
		if r := []rune(text); len(r) > maxNoteChars {
			text = string(r[:maxNoteChars]) + "…"
		}
		fmt.Fprintf(w, "%s:%d\t-\t-\t%s (%s)\n", vault.IndexFile, n.Line, strconv.QuoteToGraphic(text), notesReview)
	}
}

// approveNotes records the person's review of MEMORY.md's notes as they
// are now.
func approveNotes(f *Factory) error {
	v, err := f.Vault(false)
	if err != nil {
		return err
	}
	notes, err := v.ApproveNotes()
	if err != nil {
		return err
	}
	fmt.Fprintf(f.IO.Out, "%s: %s outside mnemo's block reviewed\n", displayPath(f, filepath.Join(v.Dir, vault.IndexFile)), plural.N(len(notes), "line", "lines"))
	return nil
}

// notesCheck is doctor's account of MEMORY.md's unreviewed notes.
func notesCheck(f *Factory) check {
	notes, err := f.unreviewedNotes()
	if err != nil {
		return check{Name: "notes", Status: "warn", Detail: err.Error()}
	}
	if len(notes) == 0 {
		return check{Name: "notes", Status: "ok", Detail: "no line of MEMORY.md outside mnemo's block waits for review"}
	}
	nums := make([]string, len(notes))
	for i, n := range notes {
		nums[i] = strconv.Itoa(n.Line)
	}
	return check{Name: "notes", Status: "warn",
		Detail: "MEMORY.md holds " + plural.N(len(notes), "line", "lines") + " outside mnemo's block that no one reviewed (" + strings.Join(nums, ", ") + "); the agent is told to check them",
		Fix:    "read them (mnemo inbox), then mnemo approve MEMORY.md, or move them into memories with mnemo add"}
}
