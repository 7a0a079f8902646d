package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// newMergeIndexCmd is the git merge driver for MEMORY.md that 'mnemo init'
// registers: git runs it with the base, ours (where the result goes) and
// theirs.
func newMergeIndexCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:    "merge-index BASE OURS THEIRS",
		Short:  "Merge MEMORY.md for git (the merge driver init registers)",
		Hidden: true,
		Args:   exactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMergeIndex(f, args[0], args[1], args[2])
		},
	}
}

// runMergeIndex merges the generated blocks itself, then lets git merge
// the rest of the text; a conflict left there is the person's to resolve,
// and git is told so by the exit status.
func runMergeIndex(f *Factory, base, ours, theirs string) error {
	var texts [3][]byte
	for i, p := range []string{base, ours, theirs} {
		data, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("merge-index: %w", err)
		}
		texts[i] = data
	}
	b, o, t := vault.MergeIndexBlocks(texts[0], texts[1], texts[2])
	fi, err := os.Stat(ours)
	if err != nil {
		return fmt.Errorf("merge-index: %w", err)
	}
	if err := atomicfile.WriteFileLike(ours, o, fi); err != nil {
		return fmt.Errorf("merge-index: %w", err)
	}
	dir, err := os.MkdirTemp("", "mnemo-merge-*")
	if err != nil {
		return fmt.Errorf("merge-index: %w", err)
	}
	defer os.RemoveAll(dir)
	bp, tp := filepath.Join(dir, "base"), filepath.Join(dir, "theirs")
	if err := errors.Join(os.WriteFile(bp, b, 0o600), os.WriteFile(tp, t, 0o600)); err != nil {
		return fmt.Errorf("merge-index: %w", err)
	}
	git := exec.Command("git", "merge-file", "-L", "ours", "-L", "base", "-L", "theirs", "--end-of-options", ours, bp, tp)
	git.Stderr = f.IO.ErrOut
	var exit *exec.ExitError
	if err := git.Run(); errors.As(err, &exit) && exit.ExitCode() > 0 {
		fmt.Fprintf(f.IO.ErrOut, "mnemo: %s: the text outside mnemo's block conflicts; resolve it, then run 'mnemo reindex'\n", ours)
		return errSilent
	} else if err != nil {
		return fmt.Errorf("merge-index: git merge-file: %w", err)
	}
	return nil
}
