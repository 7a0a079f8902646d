package cli

import (
	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type showOptions struct {
	name string
	user bool
	json bool
}

func newShowCmd(f *Factory) *cobra.Command {
	var opts showOptions
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print one memory",
		Long: `Print one memory's file as it is. With --json, print its fields, body,
the memories it links to and the memories that link to it.`,
		Example: `  mnemo show auth-moved-to-auth-package
  mnemo show --user prefers-table-tests --json`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			if !memory.ValidName(opts.name) {
				return usageErrorf("%q is not a memory name", opts.name)
			}
			return runShow(f, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.user, "user", false, "read from the user vault")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runShow(f *Factory, opts showOptions) error {
	v, err := f.Vault(opts.user)
	if err != nil {
		return err
	}
	m, err := v.Load(opts.name)
	if err != nil {
		return err
	}
	if !opts.json {
		_, err := f.IO.Out.Write(m.Render())
		return err
	}
	out := toJSON(v, opts.user, vault.Entry{Name: opts.name, Memory: m}, true)
	entries, _ := v.List()
	out.Backlinks = vault.LinkGraph(entries).Backlinks[opts.name]
	return printJSON(f.IO.Out, out)
}
