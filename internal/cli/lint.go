package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/vault"
)

type lintOptions struct {
	user bool
	json bool
}

func newLintCmd(f *Factory) *cobra.Command {
	var opts lintOptions
	cmd := &cobra.Command{
		Use:   "lint",
		Short: "Check every memory file and the index",
		Long: `Check every file of the vault and print every problem as
file:line: field: message. Errors (a header that does not parse, a missing
or invalid field, a name that does not match its file, a git conflict in
MEMORY.md) make lint exit 1. Warnings do not: a link to a memory that does
not exist yet, two memories with the same description, a body past 120
words, a MEMORY.md that is out of date or past Claude Code's load limit.`,
		Example: `  mnemo lint
  mnemo lint --json | jq '.[] | select(.severity == "error")'`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := f.Vault(opts.user)
			if err != nil {
				return err
			}
			findings := v.Lint()
			errs := 0
			for _, fd := range findings {
				if fd.Severity == vault.SeverityError {
					errs++
				}
			}
			if opts.json {
				if findings == nil {
					findings = []vault.Finding{}
				}
				if err := printJSON(f.IO.Out, findings); err != nil {
					return err
				}
			} else {
				for _, fd := range findings {
					fmt.Fprintln(f.IO.ErrOut, fd)
				}
			}
			if errs > 0 {
				fmt.Fprintf(f.IO.ErrOut, "lint: %d error(s), %d warning(s)\n", errs, len(findings)-errs)
				return errSilent
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opts.user, "user", false, "check the user vault")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the findings as JSON on stdout")
	return cmd
}
