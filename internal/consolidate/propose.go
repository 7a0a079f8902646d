package consolidate

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// ProposeChange drafts changed, the memory of where (project or user)
// under changed's name as someone other than the person would have it (an
// agent's edit the person's words do not state), for review: a draft
// linked to the memory ([LinkChanges]), so that approving it changes the
// memory and rejecting it leaves the memory as it is. The draft is
// recorded as an agent's proposal with why (said in review). The memory
// itself is not touched.
func (c *Consolidator) ProposeChange(ctx context.Context, where string, changed *memory.Memory, why string) (Outcome, error) {
	p := changed.Clone()
	p.Source, p.Why = "agent", why
	target := changed.Name
	o, err := c.draft(ctx, p)
	o.Action, o.Existing = Proposed, target
	if err != nil {
		return o, err
	}
	if err := c.Inbox.link(ctx, Link{Draft: o.Name, Memory: target, Where: where, Kind: LinkChanges, At: c.Now.UTC()}); err != nil {
		return o, err
	}
	return o, c.Inbox.Sight(ctx, Sighting{
		Memory: o.Name, Where: "inbox", Action: Drafted, Source: p.Source, Confidence: p.Confidence,
		Why: p.Why, Said: p.Description, At: c.Now.UTC(), Reasons: []Reason{ReasonProposed, ReasonAgent},
	})
}
