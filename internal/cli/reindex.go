package cli

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

func newReindexCmd(f *Factory) *cobra.Command {
	var user bool
	cmd := &cobra.Command{
		Use:   "reindex",
		Short: "Regenerate MEMORY.md and the search index from the memory files",
		Long: `Regenerate the part of MEMORY.md between the mnemo:begin and mnemo:end
markers from the memory files, and rebuild the search index from every
memory file (the recall statistics and injection records are kept, and so
are the sentence vectors of memories whose text is unchanged), with the
sentence vector of every memory that has none (MNEMO_SEMANTIC=off skips
them). Text outside the markers is
kept; a line inside them that mnemo did not write is moved below the
block. Run it after editing memory files by hand or after a git merge left
MEMORY.md conflicted.`,
		Example: `  mnemo reindex
  mnemo reindex --user`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := f.Vault(user)
			if err != nil {
				return err
			}
			md := filepath.Join(v.Dir, vault.IndexFile)
			if err := v.Reindex(cmd.Context()); err != nil {
				return err
			}
			// A conflict resolved is told here, so the next session's start
			// does not tell it again.
			if state, err := f.StateDir(user); err == nil {
				r, ok, err := vault.TakeResolved(state)
				if err != nil {
					fmt.Fprintf(f.IO.ErrOut, "mnemo: %v\n", err)
				}
				if ok {
					fmt.Fprintf(f.IO.ErrOut, "%s: a git conflict in lines %d-%d resolved: both sides' lines kept; check the text below mnemo's block\n",
						displayPath(f, r.Index), r.First, r.Last)
				}
			}
			// The search index too, rebuilt from every file: a sync skips
			// a file edited in place with its size and time kept.
			db, _, err := openIndex(cmd.Context(), f, user, (*index.DB).Rebuild)
			if err != nil {
				return err
			}
			err = embedAll(cmd.Context(), f, db)
			db.Close()
			if err != nil {
				return err
			}
			entries, problems := v.List()
			warnProblems(f.IO.ErrOut, problems)
			fmt.Fprintf(f.IO.ErrOut, "%s: %s\n", displayPath(f, md), plural.N(len(entries), "memory", "memories"))
			return nil
		},
	}
	cmd.Flags().BoolVar(&user, "user", false, "regenerate the user vault's index")
	return cmd
}
