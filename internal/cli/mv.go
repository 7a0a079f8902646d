package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

func newMvCmd(f *Factory) *cobra.Command {
	var user bool
	cmd := &cobra.Command{
		Use:   "mv OLD NEW",
		Short: "Rename a memory and the links to it",
		Long: `Rename a memory: its file and name become NEW, every [[OLD]] link in the
vault's memories becomes [[NEW]], and MEMORY.md is regenerated, all under
the vault's lock. A name that is taken is refused and nothing changes.`,
		Example: `  mnemo mv ci-runs ci-runs-on-main
  mnemo mv --user editor vim-keybindings`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, n := range args {
				if !memory.ValidName(n) {
					return usageErrorf("%q is not a memory name", n)
				}
			}
			v, err := f.Vault(user)
			if err != nil {
				return err
			}
			if err := v.Rename(cmd.Context(), args[0], args[1]); err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, displayPath(f, v.Path(args[1])))
			return nil
		},
	}
	cmd.Flags().BoolVar(&user, "user", false, "rename in the user vault")
	return cmd
}
