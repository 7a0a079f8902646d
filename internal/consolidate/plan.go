package consolidate

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Plan reports what [Consolidator.Add] would do with f, writing nothing:
// the action, and the existing memory or draft f would be merged with or
// set against. A caller that must not change an existing memory without
// asking (the MCP remember tool, when the fact says a memory again or
// contradicts one) looks first. The index is synced, as Add syncs it.
func (c *Consolidator) Plan(ctx context.Context, f Fact) (Outcome, error) {
	d, err := c.decide(ctx, f)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Action: d.action, Name: d.m.Name, Where: "inbox", Rejection: d.rejection()}
	if d.best.mem != nil {
		o.Existing, o.Similarity = d.best.name, d.best.sim
	}
	switch d.action {
	case Duplicate, Extended:
		o.Name, o.Where = d.best.name, d.best.where
	case Added:
		o.Where = "project"
		if d.m.Type == memory.TypeUser {
			o.Where = "user"
		}
	case Rejected:
		o.Where = ""
	}
	return o, nil
}

// AddNew writes f as a new memory without comparing it with the existing
// ones: to its vault when a person stated it, its confidence clears the
// auto-approve bar and it did not come from tool output, else to the inbox. It is Add for a caller
// that was told f resembles a memory and insists it is a different fact;
// a taken name gets a -2, -3… suffix, so nothing is overwritten.
func (c *Consolidator) AddNew(ctx context.Context, f Fact) (Outcome, error) {
	m, err := c.normalize(f)
	if err != nil {
		return Outcome{}, err
	}
	if c.approvable(f) {
		return c.add(ctx, m)
	}
	return c.draft(ctx, m)
}
