package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
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
the memories it links to and the memories that link to it. Drafts in the
inbox that contradict the memory or propose a change to it are named (on
stderr, or under "drafts" with --json).`,
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
	drafts := draftsAbout(f, opts.name, opts.user)
	if !opts.json {
		if _, err := f.IO.Out.Write(m.Render()); err != nil {
			return err
		}
		for _, d := range drafts {
			fmt.Fprintf(f.IO.ErrOut, "draft %s in the inbox %s: review it with 'mnemo inbox --json'\n", d.Name, draftAbout[d.Kind])
		}
		return nil
	}
	out := toJSON(v, opts.user, vault.Entry{Name: opts.name, Memory: m}, true)
	entries, _ := v.List()
	out.Backlinks = vault.LinkGraph(entries).Backlinks[opts.name]
	out.Drafts = drafts
	return printJSON(f.IO.Out, out)
}

var draftAbout = map[consolidate.LinkKind]string{
	consolidate.LinkContradicts: "contradicts this memory",
	consolidate.LinkChanges:     "proposes a change to this memory",
}

// draftsAbout returns the drafts linked to a memory: the memory's side of
// a contradiction or a proposed change. Without a state folder there are
// none.
func draftsAbout(f *Factory, name string, user bool) []linkJSON {
	state, err := f.StateDir(false)
	if err != nil {
		return nil
	}
	if _, err := os.Stat(filepath.Join(state, "inbox")); err != nil {
		return nil // show does not create the state folder
	}
	in, err := f.inbox()
	if err != nil {
		return nil
	}
	links, _ := in.LinksTo(name)
	var out []linkJSON
	for _, l := range links {
		if (l.Where == "user") == user && l.Where != "inbox" {
			out = append(out, linkJSON{Kind: l.Kind, Name: l.Draft})
		}
	}
	return out
}
