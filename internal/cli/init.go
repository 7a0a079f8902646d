package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/vault"
)

type initOptions struct {
	private bool
}

func newInitCmd(f *Factory) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the project's memory vault",
		Long: `Create the project's memory vault: .memory/ with its MEMORY.md index at the
root of the git repository (or in the working folder outside git), and the
user vault in ~/.mnemo/user ($MNEMO_HOME/user). The project vault is meant
to be committed, so the team shares what the agent learns.

With --private the vault is Claude Code's own machine-local auto-memory
folder for this project, ~/.claude/projects/<project>/memory, which is
never committed.

Running init again changes nothing that exists.`,
		Example: `  mnemo init
  mnemo init --private`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error { return runInit(f, opts) },
	}
	cmd.Flags().BoolVar(&opts.private, "private", false, "use Claude Code's machine-local memory folder instead of .memory/")
	return cmd
}

func runInit(f *Factory, opts initOptions) error {
	p, err := f.Project()
	if err != nil {
		return err
	}
	dir := p.SharedVaultDir()
	if opts.private {
		dir = p.PrivateVaultDir()
	}
	if !p.InGit() {
		fmt.Fprintf(f.IO.ErrOut, "note: %s is not in a git repository; the vault is made there\n", p.Root)
	}
	for _, v := range []struct{ what, dir string }{{"project vault", dir}, {"user vault", f.Env.UserVaultDir()}} {
		created, err := vault.Create(v.dir)
		if err != nil {
			return err
		}
		state := "exists"
		if created {
			state = "created"
		}
		fmt.Fprintf(f.IO.Out, "%s %s: %s\n", v.what, state, displayPath(f, v.dir))
	}
	return os.MkdirAll(p.StateDir(), 0o755)
}

// displayPath shortens a path under the working folder or home for messages.
func displayPath(f *Factory, path string) string {
	if wd, err := f.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(r) {
			return r
		}
	}
	if r, err := filepath.Rel(f.Env.Home, path); err == nil && filepath.IsLocal(r) && f.Env.Home != "" {
		return filepath.Join("~", r)
	}
	return path
}
