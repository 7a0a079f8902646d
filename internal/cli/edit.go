package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/edit"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type editOptions struct {
	name string
	user bool
}

func newEditCmd(f *Factory) *cobra.Command {
	var opts editOptions
	cmd := &cobra.Command{
		Use:   "edit NAME",
		Short: "Edit a memory in $EDITOR",
		Long: `Open a memory's file in $EDITOR (or $VISUAL). When you save, the result is
validated: a valid file replaces the memory (its updated date set to now,
relative dates made absolute) and MEMORY.md is regenerated; an invalid one
leaves the memory as it was, and your text is kept in the state folder
with the reasons printed. Closing the editor without a change leaves the
file byte for byte as it was.`,
		Example: `  mnemo edit auth-moved-to-auth-package
  EDITOR="code --wait" mnemo edit --user prefers-table-tests`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if !memory.ValidName(opts.name) {
				return usageErrorf("%q is not a memory name", opts.name)
			}
			return runEdit(cmd.Context(), f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.user, "user", false, "edit a memory of the user vault")
	return cmd
}

func runEdit(ctx context.Context, f *Factory, opts editOptions) error {
	v, err := f.Vault(opts.user)
	if err != nil {
		return err
	}
	file := opts.name + ".md"
	before, err := v.ReadFile(file)
	if err != nil {
		return err
	}
	after, err := runEditor(ctx, f, opts.name, before)
	if err != nil {
		return err
	}
	_, err = edit.Apply(ctx, v, opts.name, before, after, f.Now())
	switch {
	case errors.Is(err, vault.ErrNoChange):
		fmt.Fprintf(f.IO.ErrOut, "%s: no change\n", displayPath(f, v.Path(opts.name)))
		return nil
	case vault.Saved(err):
		return err
	case err != nil:
		return keepEdit(f, after, err)
	}
	fmt.Fprintf(f.IO.Out, "%s\n", displayPath(f, v.Path(opts.name)))
	return nil
}
