package consolidate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// DefaultAutoApprove is the confidence at or above which a fact not taken
// from tool output goes straight to the vault.
const DefaultAutoApprove = 0.85

// A Fact is a candidate memory.
type Fact struct {
	Name           string // a slug, or "" to make one from the description
	Description    string
	Body           string
	Type           memory.Type
	Category       string   // decision, convention, dead_end, todo, preference, reference
	Files          []string // paths relative to Cwd
	Confidence     float64
	Why            string
	FromToolOutput bool      // only tool output claims it: never auto-approved
	Source         string    // provenance: session:<id>, agent, manual
	At             time.Time // when it was said: relative dates in it count from here; zero: now
}

// An Action is what consolidation did with a fact.
type Action string

const (
	Added         Action = "added"         // a new memory in a vault
	Drafted       Action = "drafted"       // a new draft in the inbox
	Duplicate     Action = "duplicate"     // an existing memory's provenance updated
	Refined       Action = "refined"       // an existing memory updated in place
	Contradiction Action = "contradiction" // a draft linked to the memory it contradicts
	Rejected      Action = "rejected"      // like a draft a person rejected: dropped
)

// An Outcome is what happened to one fact.
type Outcome struct {
	Action     Action  `json:"action"`
	Name       string  `json:"name"`               // the memory or draft written or updated
	Where      string  `json:"where"`              // project, user or inbox
	Existing   string  `json:"existing,omitempty"` // the memory it matched
	Similarity float64 `json:"similarity,omitempty"`
}

// A Consolidator merges facts into a project's vaults and inbox.
type Consolidator struct {
	Project, User *vault.Vault
	Inbox         *Inbox
	Index         *index.DB // mirrors both vaults; Add syncs it
	Root          string    // the repository root, for anchors
	Cwd           string    // where the facts' relative paths start
	Head          string    // git HEAD, for anchors
	Now           time.Time
	AutoApprove   float64
}

// match is the memory most like a fact.
type match struct {
	name, where string
	mem         *memory.Memory
	sim         float64
}

// A decision is what consolidation will do with one fact, decided before
// anything is written (Add carries it out; Plan only reports it).
type decision struct {
	action Action
	m      *memory.Memory // the fact as a memory
	best   match          // the closest existing memory or draft
}

// decide normalizes f and decides its fate against the vaults and the
// inbox, syncing the index first so that it sees what earlier facts of a
// batch wrote.
func (c *Consolidator) decide(ctx context.Context, f Fact) (decision, error) {
	m, err := c.normalize(f)
	if err != nil {
		return decision{}, err
	}
	d := decision{m: m}
	ws := words(m.Description + " " + m.Body)
	for _, r := range c.Inbox.rejections() {
		if jaccard(ws, r) >= duplicateAt {
			d.action = Rejected
			return d, nil
		}
	}
	if _, err := c.Index.Sync(ctx, index.Source{Name: "project", Dir: c.Project.Dir}, index.Source{Name: "user", Dir: c.User.Dir}); err != nil {
		return d, err
	}
	if d.best, err = c.closest(ctx, m, ws); err != nil {
		return d, err
	}
	best, auto := d.best, f.Confidence >= c.bar() && !f.FromToolOutput
	switch {
	case best.mem != nil && best.sim >= duplicateAt:
		d.action = Duplicate
	case best.mem != nil && best.sim >= topicAt && contradicts(best.mem.Description+" "+best.mem.Body, m.Description+" "+m.Body):
		d.action = Contradiction
	case best.mem != nil && best.sim >= refinementAt && (best.where == "inbox" || auto):
		d.action = Refined
	case auto:
		d.action = Added
	default:
		d.action = Drafted
	}
	return d, nil
}

// Add consolidates one fact.
func (c *Consolidator) Add(ctx context.Context, f Fact) (Outcome, error) {
	d, err := c.decide(ctx, f)
	if err != nil {
		return Outcome{}, err
	}
	m, best := d.m, d.best
	switch d.action {
	case Rejected:
		return Outcome{Action: Rejected, Name: m.Name}, nil
	case Duplicate:
		return c.duplicate(ctx, best, m)
	case Contradiction:
		m.Body = strings.TrimRight(m.Body, "\n") + "\n\nContradicts [[" + best.name + "]]: review both.\n"
		m.Why = strings.TrimSpace(m.Why + " Contradicts " + best.name + ", which was kept.")
		o, err := c.draft(m)
		o.Action, o.Existing, o.Similarity = Contradiction, best.name, best.sim
		return o, err
	case Refined:
		if best.where == "inbox" {
			return c.refineDraft(best, m)
		}
		return c.refine(ctx, best, m)
	case Added:
		return c.add(ctx, m)
	}
	return c.draft(m)
}

func (c *Consolidator) bar() float64 {
	if c.AutoApprove > 0 {
		return c.AutoApprove
	}
	return DefaultAutoApprove
}

// normalize turns a fact into a valid memory: one-line description, a
// name, absolute dates, anchors for the files that exist.
func (c *Consolidator) normalize(f Fact) (*memory.Memory, error) {
	desc := memory.CleanLine(f.Description) // a program wrote it: clean it rather than refuse it
	body := memory.CleanBody(strings.TrimSpace(f.Body))
	if desc == "" {
		desc = firstSentence(body)
	}
	if desc == "" {
		return nil, fmt.Errorf("consolidate: a fact needs a description or a body")
	}
	if utf8.RuneCountInString(desc) > memory.MaxDescriptionLen {
		desc = string([]rune(desc)[:memory.MaxDescriptionLen-1]) + "…"
	}
	typ := f.Type
	if !typ.Valid() {
		typ = memory.TypeProject
	}
	name := f.Name
	if !memory.ValidName(name) {
		name = memory.Slug(desc)
	}
	conf := min(max(f.Confidence, 0), 1)
	said := f.At
	if said.IsZero() {
		said = c.Now
	}
	m := memory.New(memory.Header{
		Name: name, Description: memory.AbsoluteDates(desc, said), Type: typ,
		Created: c.Now, Updated: c.Now, Source: f.Source, Why: memory.CleanLine(f.Why),
		Confidence: conf, ReviewBy: staleness.ReviewBy(typ, c.Now),
	}, memory.AbsoluteDates(body, said))
	if f.Category == "todo" && typ == memory.TypeProject {
		m.ReviewBy = c.Now.AddDate(0, 0, 30).Truncate(24 * time.Hour)
	}
	if f.Category != "" {
		m.Tags = []string{strings.ReplaceAll(f.Category, "_", "-")}
	}
	// Anchored: the files the fact names, and the paths its body mentions
	// that exist in the repository.
	m.Anchors = c.anchors(append(append([]string(nil), f.Files...), staleness.BodyFiles(c.Root, m.Body)...))
	return m, nil
}

// anchors hashes the facts' files that exist inside the repository.
func (c *Consolidator) anchors(files []string) memory.Anchors {
	var ok []string
	for _, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Cwd, f)
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			if r, err := filepath.Rel(c.Root, p); err == nil && filepath.IsLocal(r) {
				ok = append(ok, p)
			}
		}
	}
	a, err := staleness.Anchor(c.Root, c.Cwd, c.Head, ok)
	if err != nil {
		return memory.Anchors{}
	}
	return a
}

// closest finds the existing memory or draft most like m.
func (c *Consolidator) closest(ctx context.Context, m *memory.Memory, ws map[string]bool) (match, error) {
	var best match
	var files []string
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	results, err := recall.New(c.Index, recall.DefaultConfig()).Recall(ctx, recall.Query{
		Text: m.Description + " " + m.Body, Files: files, Limit: 5,
	})
	if err != nil {
		return best, err
	}
	for _, r := range results {
		sim := jaccard(ws, words(r.Description+" "+r.Body))
		if shared(files, r.Files) {
			sim += 0.1
		}
		if sim <= best.sim {
			continue
		}
		v := c.Project
		if r.Source == "user" {
			v = c.User
		}
		if mem, err := v.Load(r.Name); err == nil {
			best = match{name: r.Name, where: r.Source, mem: mem, sim: sim}
		}
	}
	drafts, err := c.Inbox.List()
	if err != nil {
		return best, err
	}
	for _, d := range drafts {
		if sim := jaccard(ws, words(d.Memory.Description+" "+d.Memory.Body)); sim > best.sim {
			best = match{name: d.Name, where: "inbox", mem: d.Memory, sim: sim}
		}
	}
	return best, nil
}

func shared(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

func (c *Consolidator) vaultFor(where string) *vault.Vault {
	if where == "user" {
		return c.User
	}
	return c.Project
}

// duplicate updates a memory's provenance only: when it was last
// confirmed, and its confidence if the new one is higher.
func (c *Consolidator) duplicate(ctx context.Context, best match, m *memory.Memory) (Outcome, error) {
	o := Outcome{Action: Duplicate, Name: best.name, Where: best.where, Existing: best.name, Similarity: best.sim}
	confirm := func(old *memory.Memory) {
		old.Updated = c.Now
		old.Confidence = max(old.Confidence, m.Confidence)
	}
	if best.where == "inbox" {
		confirm(best.mem)
		return o, c.Inbox.Put(best.mem)
	}
	_, err := c.vaultFor(best.where).Update(ctx, best.name, func(old *memory.Memory) error {
		confirm(old)
		return nil
	})
	return o, err
}

// refine rewrites a memory with the better statement of its fact.
func (c *Consolidator) refine(ctx context.Context, best match, m *memory.Memory) (Outcome, error) {
	_, err := c.vaultFor(best.where).Update(ctx, best.name, func(old *memory.Memory) error {
		old.Description, old.Body, old.Updated = m.Description, m.Body, c.Now
		old.Confidence = max(old.Confidence, m.Confidence)
		if m.Why != "" {
			old.Why = m.Why
		}
		if m.Source != "" {
			old.Source = m.Source
		}
		if !m.Anchors.IsZero() {
			old.Anchors = m.Anchors
		}
		return nil
	})
	return Outcome{Action: Refined, Name: best.name, Where: best.where, Existing: best.name, Similarity: best.sim}, err
}

// refineDraft updates a draft with the newer statement of its fact.
func (c *Consolidator) refineDraft(best match, m *memory.Memory) (Outcome, error) {
	old := best.mem
	old.Description, old.Body, old.Updated = m.Description, m.Body, c.Now
	old.Confidence = max(old.Confidence, m.Confidence)
	return Outcome{Action: Refined, Name: best.name, Where: "inbox", Existing: best.name, Similarity: best.sim}, c.Inbox.Put(old)
}

// add writes a new memory to its vault: user facts to the user vault.
func (c *Consolidator) add(ctx context.Context, m *memory.Memory) (Outcome, error) {
	where := "project"
	if m.Type == memory.TypeUser {
		where = "user"
	}
	name, err := c.vaultFor(where).CreateFree(ctx, m)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{Action: Added, Name: name, Where: where}, nil
}

// draft puts a memory in the inbox for review.
func (c *Consolidator) draft(m *memory.Memory) (Outcome, error) {
	m.Name = vault.FirstFree(m.Name, func(n string) bool {
		_, err := os.Stat(filepath.Join(c.Inbox.Dir, n+".md"))
		return err == nil
	})
	return Outcome{Action: Drafted, Name: m.Name, Where: "inbox"}, c.Inbox.Put(m)
}

// firstSentence is the first sentence of a text, for a fact given without
// a description.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.IndexAny(s, ".!?"); i > 0 {
		s = s[:i]
	}
	return s
}
