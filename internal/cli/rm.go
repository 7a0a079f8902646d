package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

type rmOptions struct {
	names  []string
	reason string
	user   bool
}

func newRmCmd(f *Factory) *cobra.Command {
	var opts rmOptions
	cmd := &cobra.Command{
		Use:   "rm NAME...",
		Short: "Delete memories",
		Long: `Delete memories from the vault and regenerate MEMORY.md. Nothing is
deleted when one of the names does not exist. The reason, if given, is
written to the state log with the memory's description. In a project
vault, git keeps the history.`,
		Example: `  mnemo rm deploy-script-location --reason "the script moved to make deploy"
  mnemo rm --user old-editor-preference`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.names = args
			for _, n := range args {
				if !memory.ValidName(n) {
					return usageErrorf("%q is not a memory name", n)
				}
			}
			v, err := f.Vault(opts.user)
			if err != nil {
				return err
			}
			descriptions := make(map[string]string)
			for _, n := range opts.names {
				if m, err := v.Load(n); err == nil {
					descriptions[n] = m.Description
				}
			}
			if err := v.Delete(cmd.Context(), opts.names...); err != nil {
				return err
			}
			log := f.Log(opts.user)
			for _, n := range opts.names {
				log.Info("removed memory", "name", n, "description", redact.String(descriptions[n]), "reason", redact.String(opts.reason))
				fmt.Fprintf(f.IO.ErrOut, "removed %s\n", displayPath(f, v.Path(n)))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.reason, "reason", "", "why the memories are removed (kept in the state log)")
	cmd.Flags().BoolVar(&opts.user, "user", false, "delete from the user vault")
	return cmd
}
