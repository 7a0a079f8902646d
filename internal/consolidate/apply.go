package consolidate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// The writes of [Consolidator.Add], one per action. None changes what a
// vault memory claims except extend, and extend only adds detail, through
// [vault.Vault.Update], after checking under the lock that the memory is
// still the one it extends.

// errMoved says that a memory changed between the decision and the write.
var errMoved = errors.New("the memory changed meanwhile")

// duplicate records that a fact was said again: a sighting in the state
// folder; the committed file is not touched. A draft said again is surer:
// its confidence rises (drafts are state too).
func (c *Consolidator) duplicate(ctx context.Context, d decision) (Outcome, error) {
	best, m := d.best, d.m
	o := Outcome{Action: Duplicate, Name: best.name, Where: best.where, Existing: best.name, Similarity: best.sim}
	if err := c.Inbox.Sight(ctx, c.sighting(d, Duplicate)); err != nil {
		return o, err
	}
	if best.where == "inbox" && m.Confidence > best.mem.Confidence {
		return o, c.updateDraft(ctx, best.name, func(d *memory.Memory) {
			d.Confidence, d.Updated = max(d.Confidence, m.Confidence), c.Now
		})
	}
	return o, nil
}

func (c *Consolidator) sighting(d decision, a Action) Sighting {
	return Sighting{
		Memory: d.best.name, Where: d.best.where, Action: a, Source: d.m.Source,
		Confidence: d.m.Confidence, Why: d.m.Why, Said: d.m.Description, At: d.said.UTC(),
	}
}

// contradiction drafts the fact, its body naming the memory it contradicts,
// and records the link so that the memory can show the draft. The memory
// is kept as it is.
func (c *Consolidator) contradiction(ctx context.Context, d decision) (Outcome, error) {
	m, best := d.m, d.best
	m.Body = strings.TrimRight(m.Body, "\n") + "\n\nContradicts [[" + best.name + "]]: review both.\n"
	m.Why = strings.TrimSpace(m.Why + " Contradicts " + best.name + ", which was kept.")
	o, err := c.draft(ctx, m)
	o.Action, o.Existing, o.Similarity = Contradiction, best.name, best.sim
	if err != nil {
		return o, err
	}
	return o, c.Inbox.link(ctx, Link{Draft: o.Name, Memory: best.name, Where: best.where, Kind: LinkContradicts, At: c.Now.UTC()})
}

// extend updates the memory (or draft) a fact extends with the fact's
// statement, which has every value and nearly every word of it, and more.
// A vault memory changed since the decision is not extended: the change is
// proposed as a draft instead.
func (c *Consolidator) extend(ctx context.Context, d decision) (Outcome, error) {
	best, m := d.best, d.m
	o := Outcome{Action: Extended, Name: best.name, Where: best.where, Existing: best.name, Similarity: best.sim}
	if best.where == "inbox" {
		return o, c.updateDraft(ctx, best.name, func(d *memory.Memory) { extended(d, m, c.Now) })
	}
	v, ok := c.vaultFor(best.where)
	if !ok {
		return Outcome{}, fmt.Errorf("extend %s in %q: not a vault consolidation changes", best.name, best.where)
	}
	seen := best.mem.Render()
	_, err := v.Update(ctx, best.name, func(old *memory.Memory) error {
		if !bytes.Equal(old.Render(), seen) {
			return errMoved
		}
		extended(old, m, c.Now)
		return nil
	})
	if errors.Is(err, errMoved) || errors.Is(err, vault.ErrNotFound) {
		return c.propose(ctx, d)
	}
	if err != nil {
		return o, err
	}
	return o, c.Inbox.Sight(ctx, c.sighting(d, Extended))
}

// extended sets old to say what m says, keeping old's name, type, creation
// and provenance (the sighting records m's).
func extended(old, m *memory.Memory, now time.Time) {
	old.Description, old.Body, old.Updated = m.Description, m.Body, now
	old.Confidence = max(old.Confidence, m.Confidence)
	for _, f := range m.Anchors.Files {
		if !slices.ContainsFunc(old.Anchors.Files, func(a memory.FileAnchor) bool { return a.Path == f.Path }) {
			old.Anchors.Files = append(old.Anchors.Files, f)
			old.Anchors.Commit = m.Anchors.Commit
		}
	}
}

// propose drafts the memory a fact extends as the fact would change it,
// linked to it: approving the draft changes the memory, rejecting it
// leaves the memory as it is.
func (c *Consolidator) propose(ctx context.Context, d decision) (Outcome, error) {
	best, m := d.best, d.m
	p := best.mem.Clone()
	extended(p, m, c.Now)
	p.Confidence, p.Source = m.Confidence, m.Source
	p.Why = strings.TrimSpace("Proposes a change to " + best.name + ". " + m.Why)
	o, err := c.draft(ctx, p)
	o.Action, o.Existing, o.Similarity = Proposed, best.name, best.sim
	if err != nil {
		return o, err
	}
	return o, c.Inbox.link(ctx, Link{Draft: o.Name, Memory: best.name, Where: best.where, Kind: LinkChanges, At: c.Now.UTC()})
}

// add writes a new memory to its vault, user facts to the user vault,
// under a free name: never over another memory.
func (c *Consolidator) add(ctx context.Context, m *memory.Memory) (Outcome, error) {
	where := "project"
	if m.Type == memory.TypeUser {
		where = "user"
	}
	v, _ := c.vaultFor(where) // project or user: always a vault
	name, err := v.CreateFree(ctx, m)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Action: Added, Name: name, Where: where}, nil
}

// draft puts a memory in the inbox for review, under a name no draft has.
// The project vault's lock serializes the inbox's writers, so two
// processes drafting one name get two drafts.
func (c *Consolidator) draft(ctx context.Context, m *memory.Memory) (Outcome, error) {
	unlock, err := c.Project.Lock(ctx)
	if err != nil {
		return Outcome{}, err
	}
	defer unlock()
	m.Name = vault.FirstFree(m.Name, func(n string) bool {
		_, err := os.Lstat(filepath.Join(c.Inbox.Dir, n+".md"))
		return !errors.Is(err, fs.ErrNotExist)
	})
	return Outcome{Action: Drafted, Name: m.Name, Where: "inbox"}, c.Inbox.Put(m)
}

// updateDraft changes a draft holding the project vault's lock, reading it
// again first: fn sees the draft as it is now.
func (c *Consolidator) updateDraft(ctx context.Context, name string, fn func(*memory.Memory)) error {
	unlock, err := c.Project.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	d, err := c.Inbox.Load(name)
	if err != nil {
		return err
	}
	fn(d)
	return c.Inbox.Put(d)
}
