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
	in, err := consolidate.OpenInbox(state)
	if err != nil {
		return nil, err
	}
	p, err := f.Project()
	if err != nil {
		return nil, err
	}
	dir, err := p.Vault()
	if err != nil {
		return nil, vaultRefused(err)
	}
	return in.ShareRejections(dir), nil
}

func newInboxCmd(f *Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inbox",
		Short: "List the draft memories awaiting review",
		Long: `List what waits for review. Drafts: facts mnemo did not write to the vault
because no person stated them (what an agent remembered without the user's
words, what an extractor took from anything but the user's own words, what
came from tool output), facts below the auto-approve confidence, facts that
contradict a memory ([contradicts NAME]) and changes proposed to a memory
([changes NAME]: the draft is that memory as it would be). Drafts live in
the state folder, never in the vault, so nothing unreviewed reaches
MEMORY.md or a commit.

Then the memory files written into a vault outside mnemo (by Claude Code's
own auto memory, or by hand: files whose header names no source, or a source
that mnemo did not write and git does not hold), marked
"not reviewed", with any instruction or secret they hold. MEMORY.md and the
hooks leave them out until they are approved.

Approve with 'mnemo approve NAME' (a draft moves into the vault, a proposed
change is made to the memory it names, a file written outside mnemo gets
source: import:native), reject a draft with 'mnemo reject NAME' (it is not
proposed again), remove a file with 'mnemo rm'.`,
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
	natives := f.natives()
	if asJSON {
		out := make([]memoryJSON, 0, len(drafts)+len(natives))
		for _, d := range drafts {
			j := toJSON(nil, false, vault.Entry{Name: d.Name, Memory: d.Memory}, true)
			j.Vault, j.Path = "inbox", in.Dir+"/"+d.Name+".md"
			if l, ok := links[d.Name]; ok {
				j.About = &linkJSON{Kind: l.Kind, Name: l.Memory}
			}
			out = append(out, j)
		}
		for _, n := range natives {
			j := toJSON(n.v, n.user, n.entry, true)
			j.Review = n.review()
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
	for _, n := range natives {
		fmt.Fprintf(tw, "%s\t%s\t-\t%s (%s)\n", n.Name, n.Type, n.Description, n.review())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(drafts) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%d drafts: approve with 'mnemo approve NAME', reject with 'mnemo reject NAME'; 'mnemo inbox --json' shows their bodies\n", len(drafts))
	}
	if len(natives) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%d memory files written outside mnemo: approve with 'mnemo approve NAME', remove with 'mnemo rm NAME'\n", len(natives))
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
changes that memory instead.

A memory file written into a vault outside mnemo ('mnemo inbox' lists it as
not reviewed) is approved where it is: it gets source: import:native, and
MEMORY.md and the hooks include it from then on. Read it first: it is an
agent's write.`,
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
		for _, n := range f.natives() {
			if n.Name != name {
				continue
			}
			if edit {
				return withHint(fmt.Errorf("%s is a file of the vault written outside mnemo, not a draft", name), "edit it with 'mnemo edit "+name+"', then approve it")
			}
			path, err := approveNative(ctx, n)
			if err != nil {
				return err
			}
			fmt.Fprintln(f.IO.Out, displayPath(f, path))
			return nil
		}
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
project vault's rejected.jsonl (with the reason, if given), one line each,
committed with the memories, so that a candidate like it is proposed again
to no one on the team. The drafts themselves stay on this machine.`,
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
