package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

type gcCandidate struct {
	Name   string `json:"name"`
	Where  string `json:"where"` // project, user or inbox
	Reason string `json:"reason"`
}

func newGCCmd(f *Factory) *cobra.Command {
	var apply, asJSON bool
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "List (and with --apply remove) memories past their use",
		Long: `List the memories the expiry policy marks for removal, with the reason:
superseded; suspect for more than 30 days (see 'mnemo verify'); due for
review (project memories 90 days after they were written, references 180,
todos 30) and not recalled since; drafts waiting in the inbox for more than
30 days. User and feedback memories never expire by age.

Nothing is removed without --apply. A memory removed leaves its vault and
MEMORY.md, and is kept in the state folder's forgotten/ (any secret in it
redacted), recorded in forgotten.jsonl with the reason: to restore one,
copy it back into the vault as NAME.md and approve it ('mnemo approve
NAME'). A draft removed is kept there too, and is not rejected: no one
judged it, so a fact like it may be proposed again, and one you state is
kept ('mnemo reject' is what keeps a fact out). gc never runs from a hook.

--apply also prunes the history kept in the state, as the worker does
when it starts: the injection records of sessions idle for 30 days, and
the recall counts and verdicts of memories no longer in their vault and
unchanged for 180 days. And it prunes the records beside the inbox, as
the worker does once a day: the provenance of memories and drafts that
are nowhere any more (not in a vault, the inbox or forgotten/), and the
links of drafts reviewed more than 30 days ago. Without --apply, gc says
how many records would go. --json prints the candidates and the records
kept and pruned.`,
		Example: `  mnemo gc
  mnemo gc --json
  mnemo gc --apply`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			cands, err := gcCandidates(ctx, f)
			if err != nil {
				return err
			}
			if !asJSON {
				tw := tabwriter.NewWriter(f.IO.Out, 0, 4, 2, ' ', 0)
				for _, c := range cands {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Name, c.Where, c.Reason)
				}
				tw.Flush()
			}
			if apply {
				if err := applyGC(ctx, f, cands); err != nil {
					return err
				}
			} else if len(cands) > 0 && !asJSON {
				fmt.Fprintf(f.IO.ErrOut, "%s; run 'mnemo gc --apply' to remove %s\n", plural.N(len(cands), "candidate", "candidates"), plural.Of(len(cands), "it", "them"))
			}
			recs, err := pruneRecords(ctx, f, apply)
			if err != nil {
				return err
			}
			if !asJSON {
				printPruned(f.IO.ErrOut, recs, apply)
				return nil
			}
			if cands == nil {
				cands = []gcCandidate{}
			}
			return printJSON(f.IO.Out, gcJSON{Candidates: cands, Records: recs, Applied: apply})
		},
	}
	cmd.Flags().BoolVar(&apply, "apply", false, "remove the candidates")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func gcCandidates(ctx context.Context, f *Factory) ([]gcCandidate, error) {
	policy := staleness.DefaultPolicy()
	now := f.Now()
	db, _, err := openSyncedIndex(ctx, f, false)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	docs, err := db.All(ctx)
	if err != nil {
		return nil, err
	}
	verdicts, err := db.Verdicts(ctx)
	if err != nil {
		return nil, err
	}
	var out []gcCandidate
	for _, d := range docs {
		v, err := f.Vault(d.Source == "user")
		if err != nil {
			return nil, err
		}
		m, err := v.Load(d.Name)
		if err != nil {
			continue // unreadable: lint's business
		}
		u := staleness.Usage{LastRecalled: d.LastRecalled}
		if vd, ok := verdicts[d.Key]; ok && vd.State == string(staleness.Suspect) {
			u.SuspectSince = vd.Since
		}
		if reason, ok := policy.Candidate(m, u, now); ok {
			out = append(out, gcCandidate{Name: d.Name, Where: d.Source, Reason: reason})
		}
	}
	in, err := f.inbox()
	if err != nil {
		return nil, err
	}
	drafts, err := in.List()
	if err != nil {
		return nil, err
	}
	for _, d := range drafts {
		if reason, ok := policy.DraftCandidate(d.Memory, now); ok {
			out = append(out, gcCandidate{Name: d.Name, Where: "inbox", Reason: reason})
		}
	}
	return out, nil
}

func applyGC(ctx context.Context, f *Factory, cands []gcCandidate) error {
	in, err := f.inbox()
	if err != nil {
		return err
	}
	log := f.Log(false)
	for _, c := range cands {
		switch c.Where {
		case "inbox": // expired, not rejected: no one judged it
			if _, err := in.Expire(ctx, c.Name, vault.Removal{Vault: "inbox", Reason: c.Reason, Source: "mnemo gc", At: f.Now()}); err != nil {
				return err
			}
		default:
			if _, err := moveOut(ctx, f, c.Where == "user", c.Reason, "mnemo gc", []string{c.Name}); err != nil {
				return err
			}
		}
		log.Info("gc removed", "name", c.Name, "where", c.Where, "reason", c.Reason)
	}
	fmt.Fprintf(f.IO.ErrOut, "removed %d (memories and drafts kept in the state folder's %s/)\n", len(cands), vault.ForgottenDir)
	if db, _, err := openSyncedIndex(ctx, f, false); err == nil {
		pruneHistory(ctx, f, db)
		db.Close()
	}
	return nil
}

// pruneHistory drops the history past its bounds ([index.DB.PruneHistory])
// and logs what went. It is side work: a failure is logged, and fails no command.
func pruneHistory(ctx context.Context, f *Factory, db *index.DB) {
	log := f.Log(false)
	p, err := db.PruneHistory(ctx, f.Now())
	if err != nil {
		log.Warn("prune history", "err", err)
		return
	}
	if p != (index.Pruned{}) {
		log.Info("history pruned", "injections", p.Injections, "recalls", p.Recalls, "verdicts", p.Verdicts, "deliveries", p.Deliveries)
	}
}
