package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// scanJSON is a secret as scan --json prints it. Fields are added, never
// change meaning.
type scanJSON struct {
	vault.Secret
	What  string `json:"what"`  // the kind, for people: "GitHub token"
	Vault string `json:"vault"` // project, user or inbox
}

func newScanCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "scan",
		Short: "Find secrets already in the vaults",
		Long: `Look for secrets in every file of the project vault, the user vault and the
inbox of drafts: API keys and tokens, private keys, passwords (in URLs, in
settings, or said in words), by the same rules that make every write refuse
them. Such a file was written by hand, by an agent outside mnemo, or before
mnemo refused secrets.

Each secret is printed as file:line: kind, never the secret itself. scan
exits 1 when it finds any, 0 when there are none. A secret in a committed
vault stays in git history when the file is fixed: rotate it.`,
		Example: `  mnemo scan
  mnemo scan --json | jq -r '.[].path' | sort -u`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			found, problems := scanVaults(f)
			if asJSON {
				if found == nil {
					found = []scanJSON{}
				}
				if err := printJSON(f.IO.Out, found); err != nil {
					return err
				}
			} else {
				for _, s := range found {
					fmt.Fprintf(f.IO.Out, "%s:%d: %s\n", s.Path, s.Line, s.What)
				}
			}
			for _, p := range problems {
				fmt.Fprintf(f.IO.ErrOut, "mnemo: scan: %v\n", p)
			}
			switch {
			case len(found) > 0:
				return withHint(fmt.Errorf("%d secret(s) in the vaults", len(found)),
					"remove them from the files; a secret committed to git stays in its history, so rotate it")
			case len(problems) > 0:
				return errSilent
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the secrets found as JSON")
	return cmd
}

// scanVaults scans the project vault and its inbox, when the project has
// a vault, and the user vault, when there is one. It creates nothing.
func scanVaults(f *Factory) ([]scanJSON, []error) {
	var out []scanJSON
	var problems []error
	scan := func(dir, where string) {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return // no such vault, or no inbox yet
		}
		found, ps := vault.ScanSecrets(dir, displayPath(f, dir))
		for _, s := range found {
			out = append(out, scanJSON{Secret: s, What: redact.Describe(s.Kind), Vault: where})
		}
		problems = append(problems, ps...)
	}
	p, err := f.Project()
	if err != nil {
		problems = append(problems, err)
	} else {
		if dir, err := p.Vault(); err != nil {
			problems = append(problems, err)
		} else {
			scan(dir, "project")
		}
		scan(filepath.Join(p.StateDir(), consolidate.InboxFolder), "inbox")
	}
	scan(f.Env.UserVaultDir(), "user")
	return out, problems
}
