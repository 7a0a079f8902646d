package consolidate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// DefaultAutoApprove is the confidence at or above which a fact a person
// stated, not taken from tool output, goes straight to the vault: the
// policy's bar ([approval.StatedAt]).
const DefaultAutoApprove = approval.StatedAt

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
	FromToolOutput bool // only tool output claims it: never auto-approved
	// Stated reports that a person stated the fact: they gave it through
	// the CLI, or it is grounded in their own words of the session
	// (package provenance). Only a stated fact is ever auto-approved.
	Stated bool
	// Confirmed reports that a later successful command of the session
	// shows the fact (checked by the caller against the session, not
	// taken from a model's word): it may be approved at
	// [approval.ConfirmedAt].
	Confirmed bool
	// Relation is what the extractor said of the fact and one memory or
	// draft it was shown: a hint that [Consolidator.Add] checks against
	// its own rules (relation.go); zero when it said nothing.
	Relation Relation
	Source   string    // provenance: session:<id>, agent, manual
	At       time.Time // when it was said: relative dates in it count from here; zero: now
	// Excerpt is the text the fact was taken from (the lines of a
	// session's digest), kept with a draft for review, redacted and cut
	// to [MaxExcerpt].
	Excerpt string
}

// An Action is what consolidation did with a fact.
type Action string

const (
	Added         Action = "added"         // a new memory in a vault
	Drafted       Action = "drafted"       // a new draft in the inbox
	Duplicate     Action = "duplicate"     // the same fact as a memory: its provenance recorded in state
	Extended      Action = "extended"      // a memory or draft updated with the detail the fact adds
	Proposed      Action = "proposed"      // a draft proposing to extend a vault memory, for review
	Contradiction Action = "contradiction" // a draft linked to the memory it contradicts
	Rejected      Action = "rejected"      // like a draft this person rejected, or a teammate did before it was said: dropped
)

// An Outcome is what happened to one fact.
type Outcome struct {
	Action     Action   `json:"action"`
	Name       string   `json:"name"`               // the memory or draft written or updated
	Where      string   `json:"where"`              // project, user or inbox
	Existing   string   `json:"existing,omitempty"` // the memory it matched
	Similarity float64  `json:"similarity,omitempty"`
	Reasons    []Reason `json:"reasons,omitempty"` // why a draft is one (by [Consolidator.Add])
	// Rejection is the rejection of a draft that said the same: why the
	// fact was dropped ([Rejected]), or, a teammate's, why it waits for
	// review ([ReasonTeamRejected]). Redacted.
	Rejection *Rejection `json:"rejection,omitempty"`
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

	// Semantic, when set, returns the cosine similarity of two texts'
	// sentence vectors (package embed's model); two statements naming the
	// same values are then as similar as the higher of their word overlap
	// and their closeness in meaning (see similarity in match.go). It is
	// one more signal: two statements whose values differ stay two facts,
	// and an error from it leaves the word overlap alone.
	Semantic func(ctx context.Context, a, b string) (float64, error)
}

// A decision is what consolidation will do with one fact, decided before
// anything is written (Add carries it out; Plan only reports it).
type decision struct {
	action Action
	m      *memory.Memory // the fact as a memory
	st     *statement     // m's text, read for comparison
	said   time.Time      // when the fact was stated
	best   match          // the existing memory or draft it relates to most
	// rejected is the rejection of a draft that said the same, if any:
	// it dropped the fact (action Rejected), or, a teammate's, it is a
	// reason for review ([vetoes]).
	rejected *Rejection
}

// decide normalizes f and decides its fate against the vaults and the
// inbox, syncing the index first so that it sees what earlier facts of a
// batch wrote.
func (c *Consolidator) decide(ctx context.Context, f Fact) (decision, error) {
	m, err := c.normalize(f)
	if err != nil {
		return decision{}, err
	}
	d := decision{m: m, st: parseStatement(text(m)), said: f.At}
	if d.said.IsZero() {
		d.said = c.Now
	}
	r, ok, err := c.rejection(ctx, m, d.st)
	if err != nil {
		return d, err
	}
	if ok {
		d.rejected = r.shown()
		if vetoes(r, f, d.said) {
			d.action = Rejected
			return d, nil
		}
	}
	if err := c.sync(ctx); err != nil {
		return d, err
	}
	if d.best, err = c.closest(ctx, m, d.st, true); err != nil {
		return d, err
	}
	if named, ok := c.named(ctx, f.Relation, m, d.st); ok {
		d.best = prefer(d.best, named)
	}
	// A teammate rejected what this says: a person reviews it, whatever
	// else it has for it.
	best, auto := d.best, c.approvable(f) && d.rejected == nil
	switch {
	case best.rel == same:
		d.action = Duplicate
	case best.rel == contradicts:
		d.action = Contradiction
	case best.rel == extends && best.where == "inbox" && (!f.Stated || d.rejected != nil):
		// Only the person's own words rewrite a draft in place: what an
		// extractor inferred or a tool said (whatever the extractor claims
		// of it) would be approved under the draft's reasons and excerpt,
		// and so would a teammate's rejection.
		d.action = Drafted
	case best.rel == extends && (best.where == "inbox" || auto):
		d.action = Extended
	case best.rel == extends, best.rel == updates && best.where != "inbox":
		d.action = Proposed
	case auto:
		d.action = Added
	default:
		d.action = Drafted
	}
	return d, nil
}

// Add consolidates one fact. A fact drafted for review is recorded with
// why it is a draft and its excerpt ([Inbox.Drafting]).
func (c *Consolidator) Add(ctx context.Context, f Fact) (Outcome, error) {
	d, err := c.decide(ctx, f)
	if err != nil {
		return Outcome{}, err
	}
	o, err := c.apply(ctx, d)
	o.Rejection = d.rejection()
	if err == nil && o.Where == "inbox" && (o.Action == Drafted || o.Action == Contradiction || o.Action == Proposed) {
		o.Reasons = c.reasons(f, d)
		err = c.recordDraft(ctx, f, d, o)
	}
	return o, err
}

// rejection is the rejection that an outcome of d names: the one that
// dropped the fact, or the teammate's that made it a draft; nil when the
// fact is said again by a memory (a [Duplicate]: nothing was lost, and
// nothing waits).
func (d decision) rejection() *Rejection {
	if d.action == Duplicate {
		return nil
	}
	return d.rejected
}

// apply carries out a decision.
func (c *Consolidator) apply(ctx context.Context, d decision) (Outcome, error) {
	switch d.action {
	case Rejected:
		return Outcome{Action: Rejected, Name: d.m.Name}, nil
	case Duplicate:
		return c.duplicate(ctx, d)
	case Contradiction:
		return c.contradiction(ctx, d)
	case Extended:
		return c.extend(ctx, d)
	case Proposed:
		return c.propose(ctx, d)
	case Added:
		return c.add(ctx, d.m)
	}
	return c.draft(ctx, d.m)
}

// text is what a memory says: its description and body.
func text(m *memory.Memory) string { return m.Description + "\n" + m.Body }

// approvable reports whether f may go to a vault without review, by the
// policy of package approval: a person stated it, or a later successful
// command confirmed it, it does not rest on tool output, and its
// confidence clears the bar of its evidence. AutoApprove, when set,
// replaces the stated bar.
func (c *Consolidator) approvable(f Fact) bool {
	e := approval.Of(f.Stated, f.Confirmed, f.FromToolOutput)
	if e == approval.Stated {
		return f.Confidence >= c.bar()
	}
	return approval.Active(e, f.Confidence)
}

func (c *Consolidator) bar() float64 {
	if c.AutoApprove > 0 {
		return c.AutoApprove
	}
	return DefaultAutoApprove
}

// CheckSize refuses a fact too large to keep ([memory.CheckSize]); callers
// ask before the costly passes over its text.
func (f Fact) CheckSize() error {
	return memory.CheckSize("", "body", len(f.Description)+len(f.Body)+len(f.Why))
}

// normalize turns a fact into a valid memory: one-line description, a
// name, absolute dates, anchors for the files that exist.
func (c *Consolidator) normalize(f Fact) (*memory.Memory, error) {
	if err := f.CheckSize(); err != nil {
		return nil, fmt.Errorf("consolidate: %w", err)
	}
	if err := refuseSecrets(f); err != nil {
		return nil, err
	}
	desc := clipLine(f.Description) // a program wrote it: clean it rather than refuse it
	body := memory.CleanBody(strings.TrimSpace(f.Body))
	if desc == "" {
		desc = clipLine(firstSentence(body))
	}
	if desc == "" {
		return nil, fmt.Errorf("consolidate: %w", &memory.ParseError{Field: "description", Err: errors.New("missing, and the fact has no body to take one from")})
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
	var rel []string
	for _, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Cwd, f)
		}
		if r, err := filepath.Rel(c.Root, p); err == nil && filepath.IsLocal(r) {
			rel = append(rel, filepath.ToSlash(r))
		}
	}
	// Only the files inside the repository, through no symlink out of it:
	// one such path must not cost the fact its other anchors.
	a, err := staleness.Anchor(c.Root, c.Root, c.Head, staleness.ExistingPaths(c.Root, rel))
	if err != nil {
		return memory.Anchors{}
	}
	return a
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
