package consolidate

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// Plan reports what [Consolidator.Add] would do with f, writing nothing:
// the action, and the existing memory or draft f would be merged with or
// set against. A caller that must not change an existing memory without
// asking (the MCP remember tool, when the fact contradicts one) looks
// first. The index is synced, as Add syncs it.
func (c *Consolidator) Plan(ctx context.Context, f Fact) (Outcome, error) {
	m, err := c.normalize(f)
	if err != nil {
		return Outcome{}, err
	}
	ws := words(m.Description + " " + m.Body)
	for _, r := range c.Inbox.rejections() {
		if jaccard(ws, r) >= duplicateAt {
			return Outcome{Action: Rejected, Name: m.Name}, nil
		}
	}
	if _, err := c.Index.Sync(ctx, index.Source{Name: "project", Dir: c.Project.Dir}, index.Source{Name: "user", Dir: c.User.Dir}); err != nil {
		return Outcome{}, err
	}
	best, err := c.closest(ctx, m, ws)
	if err != nil {
		return Outcome{}, err
	}
	auto := f.Confidence >= c.bar() && !f.FromToolOutput
	o := Outcome{Name: m.Name, Where: "inbox", Action: Drafted}
	if best.mem != nil {
		o.Existing, o.Similarity = best.name, best.sim
	}
	switch {
	case best.mem != nil && best.sim >= duplicateAt:
		o.Action, o.Name, o.Where = Duplicate, best.name, best.where
	case best.mem != nil && best.sim >= topicAt && contradicts(best.mem.Description+" "+best.mem.Body, m.Description+" "+m.Body):
		o.Action = Contradiction
	case best.mem != nil && best.sim >= refinementAt && best.where != "inbox" && auto:
		o.Action, o.Name, o.Where = Refined, best.name, best.where
	case best.mem != nil && best.sim >= refinementAt && best.where == "inbox":
		o.Action, o.Name = Refined, best.name
	case auto:
		o.Action, o.Where = Added, "project"
		if m.Type == "user" {
			o.Where = "user"
		}
	}
	return o, nil
}

// AddNew writes f as a new memory without comparing it with the existing
// ones: to its vault when its confidence clears the auto-approve bar and it
// did not come from tool output, else to the inbox. It is Add for a caller
// that was told f resembles a memory and insists it is a different fact;
// a taken name gets a -2, -3… suffix, so nothing is overwritten.
func (c *Consolidator) AddNew(ctx context.Context, f Fact) (Outcome, error) {
	m, err := c.normalize(f)
	if err != nil {
		return Outcome{}, err
	}
	if f.Confidence >= c.bar() && !f.FromToolOutput {
		return c.add(ctx, m)
	}
	return c.draft(m)
}
