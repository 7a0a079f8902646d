package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/project"
)

func newVaultCmd(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "vault",
		Short: "Mount other vaults read-only: add, list, remove",
		Long: `Mount another vault in this project, read-only: a folder of memory files,
such as a checkout of your organisation's conventions repository. Its
memories are recalled beside the project and user vaults, labelled with
the mount's name, and never written. Its files are as untrusted as any
vault's. The mounts are this machine's: they live in the state folder.`,
		Example: `  mnemo vault add ~/code/conventions/.memory --name conventions
  mnemo vault list
  mnemo vault remove conventions`,
		Args: exactArgs(0),
	}
	cmd.AddCommand(newVaultAddCmd(f), newVaultListCmd(f), newVaultRemoveCmd(f))
	return cmd
}

func newVaultAddCmd(f *Factory) *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:     "add PATH",
		Short:   "Mount a folder of memory files read-only",
		Example: `  mnemo vault add ~/code/conventions/.memory --name conventions`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := filepath.Abs(args[0])
			if err != nil {
				return err
			}
			if fi, err := os.Stat(dir); err != nil {
				return fmt.Errorf("vault add: %w", err)
			} else if !fi.IsDir() {
				return fmt.Errorf("vault add: %s is not a folder", dir)
			}
			if name == "" {
				name = filepath.Base(dir)
				if name == project.VaultFolder {
					name = filepath.Base(filepath.Dir(dir))
				}
			}
			if !project.ValidMountName(name) {
				return usageErrorf("--name %q: want a short lowercase slug other than project and user", name)
			}
			p, err := f.Project()
			if err != nil {
				return err
			}
			if dir == p.VaultDir() || dir == f.Env.UserVaultDir() {
				return fmt.Errorf("vault add: %s is already this project's vault", dir)
			}
			ms, err := p.Mounts()
			if err != nil {
				return err
			}
			if slices.ContainsFunc(ms, func(m project.Mount) bool { return m.Name == name }) {
				return fmt.Errorf("vault add: a vault named %s is mounted already: 'mnemo vault remove %s' first", name, name)
			}
			if err := p.SetMounts(append(ms, project.Mount{Name: name, Dir: dir})); err != nil {
				return err
			}
			fmt.Fprintf(f.IO.ErrOut, "mounted %s read-only as %s\n", displayPath(f, dir), name)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the label of its memories (default: the folder's name)")
	return cmd
}

func newVaultListCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the mounted vaults",
		Example: `  mnemo vault list --json`,
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := f.Project()
			if err != nil {
				return err
			}
			ms, err := p.Mounts()
			if err != nil {
				return err
			}
			if asJSON {
				if ms == nil {
					ms = []project.Mount{}
				}
				return printJSON(f.IO.Out, ms)
			}
			tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
			for _, m := range ms {
				fmt.Fprintf(tw, "%s\t%s\n", m.Name, m.Dir)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the mounts as JSON")
	return cmd
}

func newVaultRemoveCmd(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:     "remove NAME",
		Short:   "Unmount a vault; its files are not touched",
		Example: `  mnemo vault remove conventions`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := f.Project()
			if err != nil {
				return err
			}
			ms, err := p.Mounts()
			if err != nil {
				return err
			}
			i := slices.IndexFunc(ms, func(m project.Mount) bool { return m.Name == args[0] })
			if i < 0 {
				return fmt.Errorf("vault remove: no vault named %s is mounted (see 'mnemo vault list')", args[0])
			}
			if err := p.SetMounts(slices.Delete(ms, i, i+1)); err != nil {
				return err
			}
			// Its rows leave the index now, not at the next sync of the vault.
			if db, err := index.Open(cmd.Context(), filepath.Join(p.StateDir(), index.FileName), nil); err == nil {
				_, err = db.Sync(cmd.Context(), index.Source{Name: args[0], Dir: filepath.Join(p.StateDir(), "unmounted")})
				db.Close()
				if err != nil {
					return err
				}
			}
			fmt.Fprintf(f.IO.ErrOut, "unmounted %s\n", args[0])
			return nil
		},
	}
}

// mountSources are the mounted vaults as index sources, named by their mounts.
func mountSources(p *project.Project) []index.Source {
	ms, _ := p.Mounts() // an unreadable list mounts nothing; 'mnemo vault list' says why
	return index.MountSources(ms)
}
