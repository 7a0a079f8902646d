package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

func (f *Factory) inbox() (*consolidate.Inbox, error) {
	state, err := f.StateDir(false)
	if err != nil {
		return nil, err
	}
	return consolidate.OpenInbox(state)
}

func newInboxCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "List the draft memories awaiting review",
		Long: `List the drafts the worker extracted and did not write to the vault: facts
below the auto-approve confidence, facts taken from tool output, facts
that contradict a memory ([contradicts NAME]) and changes proposed to a
memory ([changes NAME]: the draft is that memory as it would be). Drafts
live in the state folder, never in the vault, so nothing unreviewed
reaches MEMORY.md or a commit.

Approve a draft with 'mnemo approve NAME' (it moves into the vault; a
proposed change is made to the memory it names) or reject it with 'mnemo
reject NAME' (it is not proposed again).`,
		Example: `  mnemo inbox
  mnemo inbox --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error { return runInbox(f, asJSON) },
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, bodies included")
	return cmd
}

// runInbox lists the drafts, each with the memory it is about.
func runInbox(f *Factory, asJSON bool) error {
	in, err := f.inbox()
	if err != nil {
		return err
	}
	drafts, err := in.List()
	if err != nil {
		return err
	}
	links, err := in.Links()
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]memoryJSON, 0, len(drafts))
		for _, d := range drafts {
			j := toJSON(nil, false, vault.Entry{Name: d.Name, Memory: d.Memory}, true)
			j.Vault, j.Path = "inbox", in.Dir+"/"+d.Name+".md"
			if l, ok := links[d.Name]; ok {
				j.About = &linkJSON{Kind: l.Kind, Name: l.Memory}
			}
			out = append(out, j)
		}
		return printJSON(f.IO.Out, out)
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	for _, d := range drafts {
		about := ""
		if l, ok := links[d.Name]; ok {
			about = fmt.Sprintf("  [%s %s]", l.Kind, l.Memory)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%s%s\n", d.Name, d.Memory.Type, d.Memory.Confidence, d.Memory.Description, about)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(drafts) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%d drafts: approve with 'mnemo approve NAME', reject with 'mnemo reject NAME'; 'mnemo inbox --json' shows their bodies\n", len(drafts))
	}
	return nil
}

func newApproveCmd(f *Factory) *cobra.Command {
	var edit bool
	cmd := &cobra.Command{
		Use:   "approve NAME...",
		Short: "Move drafts from the inbox into the vault",
		Long: `Move drafts from the inbox into the vault (user memories into the user
vault) and regenerate MEMORY.md. With --edit each draft opens in $EDITOR
first. A name already taken in the vault gets a -2, -3… suffix. A draft
that proposes a change to a memory ([changes NAME] in 'mnemo inbox')
changes that memory instead.`,
		Example: `  mnemo approve pnpm-in-web
  mnemo approve --edit prices-are-strings`,
		Args: minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := f.inbox()
			if err != nil {
				return err
			}
			for _, name := range args {
				if err := approveOne(cmd.Context(), f, in, name, edit); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&edit, "edit", false, "edit each draft in $EDITOR before approving it")
	return cmd
}

func approveOne(ctx context.Context, f *Factory, in *consolidate.Inbox, name string, edit bool) error {
	d, err := in.Load(name)
	if err != nil {
		return err
	}
	v, err := f.Vault(d.Type == memory.TypeUser)
	if err != nil {
		return err
	}
	var editFn func(*memory.Memory) error
	if edit {
		editFn = func(m *memory.Memory) error {
			text, err := runEditor(ctx, f, name, m.Render())
			if err != nil {
				return err
			}
			edited, err := memory.Parse(name+".md", text)
			if err == nil {
				err = edited.Validate("")
			}
			if err != nil {
				return keepEdit(f, text, err)
			}
			*m = *edited
			return nil
		}
	}
	got, err := in.Approve(ctx, v, name, f.Now().UTC(), editFn)
	if err != nil {
		return err
	}
	fmt.Fprintln(f.IO.Out, displayPath(f, v.Path(got)))
	return nil
}

func newRejectCmd(f *Factory) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "reject NAME...",
		Short: "Drop drafts from the inbox, and do not propose them again",
		Long: `Delete drafts from the inbox. Each rejected fact is remembered in the
state folder (with the reason, if given), and a candidate like it is not
proposed again.`,
		Example: `  mnemo reject api-rate-limit --reason "read from a stale doc page"`,
		Args:    minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := f.inbox()
			if err != nil {
				return err
			}
			for _, name := range args {
				if err := in.Reject(name, reason, f.Now()); err != nil {
					return err
				}
				fmt.Fprintf(f.IO.ErrOut, "rejected %s\n", name)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the drafts are wrong (kept with the rejection)")
	return cmd
}
