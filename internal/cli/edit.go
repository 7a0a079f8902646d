package cli

import (
	"bytes"
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
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
	if bytes.Equal(before, after) {
		fmt.Fprintf(f.IO.ErrOut, "%s: no change\n", displayPath(f, v.Path(opts.name)))
		return nil
	}
	m, err := memory.Parse(file, after)
	if err == nil {
		err = m.Validate(file)
	}
	if err != nil {
		return keepEdit(f, after, err)
	}
	now := f.Now().UTC()
	m.Updated = now
	m.Description = memory.AbsoluteDates(m.Description, now)
	m.Body = memory.AbsoluteDates(m.Body, now)

	unlock, err := v.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	// Someone may have written the memory while the editor was open: keep
	// theirs and this edit both, rather than losing one.
	if current, err := v.ReadFile(file); err != nil || !bytes.Equal(current, before) {
		return keepEdit(f, after, fmt.Errorf("%s changed while you were editing it", displayPath(f, v.Path(opts.name))))
	}
	if _, err := v.UpdateLocked(opts.name, func(cur *memory.Memory) error {
		staleness.Retype(cur, m, now)
		*cur = *m
		return nil
	}); err != nil {
		return keepEdit(f, after, err)
	}
	if err := v.ReindexAfter(opts.name); err != nil {
		return err
	}
	fmt.Fprintf(f.IO.Out, "%s\n", displayPath(f, v.Path(opts.name)))
	return nil
}
