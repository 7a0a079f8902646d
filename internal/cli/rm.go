package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
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
		Short: "Remove memories from the vault",
		Long: `Remove memories from the vault and regenerate MEMORY.md. Nothing is
destroyed: each file is kept in the vault's state folder, in forgotten/
(any secret in it redacted), and recorded in forgotten.jsonl with the
reason, if given. To restore one, copy it back into the vault as NAME.md
and approve it ('mnemo approve NAME'). Nothing is removed when one of the
names does not exist.`,
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
			kept, err := moveOut(cmd.Context(), f, opts.user, opts.reason, "mnemo rm", opts.names)
			if err != nil {
				return err
			}
			log := f.Log(opts.user)
			for i, n := range opts.names {
				log.Info("removed memory", "name", n, "description", redact.String(descriptions[n]), "reason", redact.String(opts.reason), "kept", kept[i])
				fmt.Fprintf(f.IO.ErrOut, "removed %s: kept in %s\n", displayPath(f, v.Path(n)), displayPath(f, kept[i]))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.reason, "reason", "", "why the memories are removed (kept in the state log)")
	cmd.Flags().BoolVar(&opts.user, "user", false, "remove from the user vault")
	return cmd
}

// moveOut takes memories out of the project or user vault, keeping each
// in its state folder ([vault.Vault.MoveOut]); it returns where each went.
func moveOut(ctx context.Context, f *Factory, user bool, reason, source string, names []string) ([]string, error) {
	v, err := f.Vault(user)
	if err != nil {
		return nil, err
	}
	where := "project"
	if user {
		where = "user"
	}
	return v.MoveOut(ctx, vault.Removal{Vault: where, Reason: reason, Source: source, At: f.Now()}, names...)
}
