package cli

import (
	"context"
	"fmt"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/edit"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/redact"
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
	v, err := f.Vault(false)
	if err != nil {
		return nil, err
	}
	return in.ShareRejections(v.Dir).LockWith(v), nil
}

// rejecter is the inbox, recording who rejects as git names them.
func (f *Factory) rejecter(ctx context.Context) (*consolidate.Inbox, error) {
	in, err := f.inbox()
	if err != nil {
		return nil, err
	}
	if p, err := f.Project(); err == nil {
		in.As(p.Author(ctx))
	}
	return in, nil
}

// draftsCheck is doctor's count of the drafts waiting for review: the
// count the session's reminder and 'mnemo stats' give.
func draftsCheck(state string) check {
	switch n := consolidate.Waiting(state); n {
	case 0:
		return check{Name: "drafts", Status: "ok", Detail: "no draft waits for review"}
	case 1:
		return check{Name: "drafts", Status: "warn", Detail: "1 draft waits for review", Fix: "mnemo ui (or mnemo inbox)"}
	default:
		return check{Name: "drafts", Status: "warn", Detail: plural.N(n, "draft waits", "drafts wait") + " for review", Fix: "mnemo ui (or mnemo inbox)"}
	}
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

Under each draft: why it is one (inferred from a session, written by an
agent without the user's words, from tool output, below the auto-approve
confidence, a contradiction, a proposed change, or a teammate's rejection
of a draft like it, made before the user said it: who, when, what it said
and why) and the existing memory closest to it (the one it is about, else
the first recall finds). --json adds the excerpt of the session it was
taken from, and the teammate's rejection ("rejection").

Then the memory files written into a vault outside mnemo (by Claude Code's
own auto memory, or by hand: files whose header names no source, or a source
that mnemo did not write and no teammate's commit gave), marked
"not reviewed", with why and any instruction or secret they hold. A commit
made in this clone is not a review, yours or the agent's ("committed in this
clone (COMMIT)"); a teammate's, fetched or pulled, is. MEMORY.md and the
hooks leave them out until they are approved.

Last, the lines of MEMORY.md outside mnemo's block that no one reviewed on
this machine (MEMORY.md:LINE, what it says, redacted): Claude Code loads
them every session as they are, whoever wrote them (a commit, an agent), so
until 'mnemo approve MEMORY.md' the agent is told they are notes no one
reviewed, not facts. mnemo never changes nor removes them.

Approve with 'mnemo approve NAME' (a draft moves into the vault, a proposed
change is made to the memory it names, a file written outside mnemo gets
source: import:native), reject a draft with 'mnemo reject NAME' (it is not
proposed again), remove a file with 'mnemo rm'.`,
		Example: `  mnemo inbox
  mnemo inbox --json`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error { return runInbox(cmd.Context(), f, asJSON) },
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON, bodies included")
	return cmd
}

// A draftReview is what 'mnemo inbox' says of a draft beside the draft
// itself: why it is a draft, the memory it is about, the closest memory,
// and the excerpt of the session it came from.
type draftReview struct {
	d       consolidate.Draft
	link    consolidate.Link
	reasons []consolidate.Reason
	closest *closestJSON
	excerpt string
	// rejected is the teammate's rejection the draft repeats, if any.
	rejected *consolidate.Rejection
}

// closestJSON is the existing memory closest to a draft.
type closestJSON struct {
	Name        string `json:"name"`
	Vault       string `json:"vault"`
	Description string `json:"description"`
}

// runInbox lists the drafts, each with why it is one and the memory it is
// about or closest to.
func runInbox(ctx context.Context, f *Factory, asJSON bool) error {
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
	reviews := make([]draftReview, len(drafts))
	for i, d := range drafts {
		reviews[i] = draftReview{d: d, link: links[d.Name], reasons: in.Reasons(d, links[d.Name])}
		if s, ok, _ := in.Drafting(d); ok {
			reviews[i].excerpt, reviews[i].rejected = s.Excerpt, s.Rejection
		}
	}
	closestMemories(ctx, f, reviews)
	natives := f.natives()
	if asJSON {
		out := make([]memoryJSON, 0, len(drafts)+len(natives))
		for _, r := range reviews {
			j := toJSON(nil, false, vault.Entry{Name: r.d.Name, Memory: r.d.Memory}, true)
			j.Vault, j.Path = "inbox", in.Dir+"/"+r.d.Name+".md"
			if r.link.Kind != "" {
				j.About = &linkJSON{Kind: r.link.Kind, Name: r.link.Memory}
			}
			j.Reasons, j.Closest, j.Excerpt, j.Rejection = r.reasons, r.closest, r.excerpt, r.rejected
			out = append(out, j)
		}
		for _, n := range natives {
			j := shownJSON(toJSON(n.v, n.user, n.entry, true)) // no one reviewed it: it may hold a secret
			j.Body = redact.String(j.Body)
			j.Review = n.review()
			out = append(out, j)
		}
		return printJSON(f.IO.Out, out)
	}
	if err := printDrafts(f, reviews); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	for _, n := range natives {
		fmt.Fprintf(tw, "%s\t%s\t-\t%s (%s)\n", n.Name, n.Type, n.Description, n.review()) // redacted by provenance.Natives
	}
	notes, err := f.unreviewedNotes()
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: %v\n", err)
	}
	printNotes(tw, notes)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(drafts) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%s: approve with 'mnemo approve NAME', reject with 'mnemo reject NAME'; 'mnemo inbox --json' shows their bodies\n", plural.N(len(drafts), "draft", "drafts"))
	}
	if len(natives) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%s written outside mnemo: approve with 'mnemo approve NAME', remove with 'mnemo rm NAME'\n", plural.N(len(natives), "memory file", "memory files"))
	}
	if len(notes) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "%s of MEMORY.md outside mnemo's block no one reviewed: once read, approve with 'mnemo approve MEMORY.md'; mnemo never changes them\n", plural.N(len(notes), "line", "lines"))
	}
	return nil
}

// printDrafts writes a line per draft, then why it is a draft and the
// memory closest to it, indented under it.
func printDrafts(f *Factory, reviews []draftReview) error {
	tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
	for _, r := range reviews {
		about := ""
		if r.link.Kind != "" {
			about = fmt.Sprintf("  [%s %s]", r.link.Kind, r.link.Memory)
		}
		m := r.d.Memory
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%s%s\n", r.d.Name, m.Type, m.Confidence, m.Description, about)
		if len(r.reasons) > 0 {
			fmt.Fprintf(tw, "    why: %s\n", consolidate.Explain(r.reasons, r.link, r.rejected))
		}
		if r.closest != nil {
			fmt.Fprintf(tw, "    closest: %s (%s)\n", r.closest.Name, r.closest.Description)
		}
	}
	return tw.Flush()
}

// closestMemories finds the existing memory closest to each draft: the one
// its link names, else the first that recall finds for it. Without an
// index there is none; the listing goes on.
func closestMemories(ctx context.Context, f *Factory, reviews []draftReview) {
	if len(reviews) == 0 {
		return
	}
	db, _, err := openSyncedIndex(ctx, f, false)
	if err != nil {
		fmt.Fprintf(f.IO.ErrOut, "warning: no closest memories: %v\n", err)
		return
	}
	defer db.Close()
	rc := recall.New(db, recall.DefaultConfig())
	for i, r := range reviews {
		if r.link.Memory != "" {
			if v := vaultOf(f, r.link.Where); v != nil {
				if m, err := v.Load(r.link.Memory); err == nil {
					reviews[i].closest = &closestJSON{Name: m.Name, Vault: r.link.Where, Description: redact.String(m.Description)}
					continue
				}
			}
		}
		q := consolidate.ClosestQuery(r.d.Memory, 4)
		q.Now = f.Now()
		rs, _ := rc.Recall(ctx, q)
		if j := slices.IndexFunc(rs, consolidate.Alike); j >= 0 {
			reviews[i].closest = &closestJSON{Name: rs[j].Name, Vault: rs[j].Source, Description: redact.String(rs[j].Description)}
		}
	}
}

// vaultOf is the project or user vault by its name in a link, or nil.
func vaultOf(f *Factory, where string) *vault.Vault {
	if where != "project" && where != "user" {
		return nil
	}
	v, err := f.Vault(where == "user")
	if err != nil {
		return nil
	}
	return v
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
not reviewed, and why) is approved where it is: it gets source:
import:native, and MEMORY.md and the hooks include it from then on. Read it
first: it is an agent's write, even when it is committed in this clone (the
agent can commit as easily as it writes).

'mnemo approve MEMORY.md' records that you reviewed the lines of MEMORY.md
outside mnemo's block as they are now ('mnemo inbox' lists those no one
reviewed): Claude Code loads them every session, and until then the agent
is told they are notes no one reviewed, not facts. Nothing in the file
changes.`,
		Example: `  mnemo approve pnpm-in-web
  mnemo approve MEMORY.md
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

func approveOne(ctx context.Context, f *Factory, in *consolidate.Inbox, name string, withEditor bool) error {
	if name == notesName {
		if withEditor {
			return withHint(fmt.Errorf("%s is not a draft", name), "edit it in your editor, then approve it")
		}
		return approveNotes(f)
	}
	d, err := in.Load(name)
	if err != nil {
		for _, n := range f.natives() {
			if n.Name != name {
				continue
			}
			if withEditor {
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
	if withEditor {
		editFn = func(m *memory.Memory) error {
			text, err := runEditor(ctx, f, name, m.Render())
			if err != nil {
				return err
			}
			edited, err := edit.Draft(m, text, f.Now())
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
project vault's rejected.jsonl (with the reason, if given, and who rejected
it, as git's user.name says), one line each, committed with the memories,
and in the state folder as yours. A fact like it is not proposed again to
you. To a teammate your rejection is evidence, not a veto: what they did not
state, or stated before you rejected it, is dropped; what they state after
it waits in their inbox, with your rejection as the reason. The drafts
themselves stay on this machine.`,
		Example: `  mnemo reject api-rate-limit --reason "read from a stale doc page"`,
		Args:    minArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := f.rejecter(cmd.Context())
			if err != nil {
				return err
			}
			for _, name := range args {
				if err := in.Reject(cmd.Context(), name, reason, f.Now()); err != nil {
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
