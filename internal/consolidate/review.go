package consolidate

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// What review shows beside a draft: why it is a draft and not a memory,
// the lines of the session it came from, and the memories closest to it.
// Consolidation records the first two when it drafts a fact, as a
// sighting of the draft ([Drafted], in provenance.jsonl).

// A Reason says why a fact is a draft rather than a memory.
type Reason string

// Reasons, as 'mnemo inbox --json' gives them.
const (
	ReasonInferred      Reason = "inferred"         // an extractor took it from a session, not from the person's words
	ReasonAgent         Reason = "agent"            // an agent wrote it without the person's words
	ReasonToolOutput    Reason = "tool_output"      // only tool output claims it
	ReasonContradiction Reason = "contradiction"    // it disagrees with a memory
	ReasonProposed      Reason = "proposed_change"  // it changes what a memory claims
	ReasonLowConfidence Reason = "low_confidence"   // stated, but below the auto-approve bar
	ReasonUnreviewed    Reason = "no_source"        // written into the inbox outside mnemo
	ReasonTeamRejected  Reason = "rejected_by_team" // a teammate rejected a draft saying it, before the person said it
)

// String says the reason in words for a person.
func (r Reason) String() string {
	switch r {
	case ReasonInferred:
		return "inferred from a session, not in your words"
	case ReasonAgent:
		return "written by an agent without your words"
	case ReasonToolOutput:
		return "from tool output"
	case ReasonContradiction:
		return "contradicts a memory"
	case ReasonProposed:
		return "proposes a change to a memory"
	case ReasonLowConfidence:
		return "confidence below the auto-approve bar"
	case ReasonUnreviewed:
		return "written outside mnemo"
	case ReasonTeamRejected:
		return "a teammate rejected a draft saying it"
	}
	return string(r)
}

// Explain says reasons in words, naming the memory a draft's link is about
// and, when rejected is not nil, the teammate's rejection it repeats.
func Explain(rs []Reason, link Link, rejected *Rejection) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		switch {
		case r == ReasonTeamRejected && rejected != nil:
			out[i] = rejected.String()
		case r == ReasonContradiction && link.Memory != "":
			out[i] = "contradicts " + link.Memory
		case r == ReasonProposed && link.Memory != "":
			out[i] = "proposes a change to " + link.Memory
		default:
			out[i] = r.String()
		}
	}
	return strings.Join(out, "; ")
}

// MaxExcerpt bounds the excerpt of a session kept with a draft, in bytes.
const MaxExcerpt = 600

// reasons says why consolidation drafts f, decided as d.
func (c *Consolidator) reasons(f Fact, d decision) []Reason {
	var out []Reason
	switch d.action {
	case Contradiction:
		out = append(out, ReasonContradiction)
	case Proposed:
		out = append(out, ReasonProposed)
	}
	switch {
	case !f.Stated && f.Source == "agent":
		out = append(out, ReasonAgent)
	case !f.Stated:
		out = append(out, ReasonInferred)
	}
	if f.FromToolOutput {
		out = append(out, ReasonToolOutput)
	}
	if f.Stated && !f.FromToolOutput && f.Confidence < c.bar() {
		out = append(out, ReasonLowConfidence)
	}
	if d.rejected != nil {
		out = append(out, ReasonTeamRejected)
	}
	return out
}

// recordDraft records why a fact became the draft o (o.Reasons), and the
// excerpt of the session it came from.
func (c *Consolidator) recordDraft(ctx context.Context, f Fact, d decision, o Outcome) error {
	return c.Inbox.Sight(ctx, Sighting{
		Memory: o.Name, Where: "inbox", Action: Drafted, Source: d.m.Source, Confidence: d.m.Confidence,
		Why: d.m.Why, Said: d.m.Description, At: c.Now.UTC(), Reasons: o.Reasons, Excerpt: excerpt(f.Excerpt),
		Rejection: d.rejected,
	})
}

// excerpt is s redacted and cut to [MaxExcerpt] bytes at a character.
func excerpt(s string) string {
	s = strings.TrimSpace(redact.String(s))
	if len(s) <= MaxExcerpt {
		return s
	}
	cut := MaxExcerpt - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Drafting returns what consolidation recorded when it drafted d: why,
// and from what. ok is false for a draft written otherwise, or before
// that was recorded; a record of an earlier draft of the same name is not
// d's.
func (in *Inbox) Drafting(d Draft) (s Sighting, ok bool, err error) {
	all, err := in.sightings.get(in.provenance, readJSONL[Sighting])
	if err != nil {
		return Sighting{}, false, fmt.Errorf("inbox: %w", err)
	}
	since := draftedSince(d.Memory.Created)
	for _, r := range slices.Backward(all) {
		if isDrafting(r, d.Name, since) {
			return r, true, nil
		}
	}
	return Sighting{}, false, nil
}

// draftedSince is the earliest time a record of drafting a draft created
// at created may have: the header keeps whole seconds.
func draftedSince(created time.Time) time.Time { return created.Truncate(time.Second) }

// isDrafting reports whether r records the drafting of the draft name,
// written no earlier than since ([draftedSince]): a record of an earlier
// draft of the same name is not this one's.
func isDrafting(r Sighting, name string, since time.Time) bool {
	return r.Action == Drafted && r.Memory == name && r.Where == "inbox" && !r.At.Before(since)
}

// Reasons says why d is a draft: what consolidation recorded when it
// drafted it, else what the draft shows (its link, its source). link is
// d's ([Inbox.LinkOf]).
func (in *Inbox) Reasons(d Draft, link Link) []Reason {
	if s, ok, err := in.Drafting(d); err == nil && ok && len(s.Reasons) > 0 {
		return s.Reasons
	}
	var out []Reason
	switch link.Kind {
	case LinkContradicts:
		out = append(out, ReasonContradiction)
	case LinkChanges:
		out = append(out, ReasonProposed)
	}
	switch m := d.Memory; {
	case m.Source == "agent":
		out = append(out, ReasonAgent)
	case strings.HasPrefix(m.Source, "session:"):
		out = append(out, ReasonInferred)
	case !m.Reviewed():
		out = append(out, ReasonUnreviewed)
	}
	return out
}

// ClosestQuery is the recall query for the memories closest to m: its
// text and the files it is anchored to, as consolidation looks for the
// memory a fact relates to. Review shows its results beside a draft.
func ClosestQuery(m *memory.Memory, limit int) recall.Query {
	var files []string
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	return recall.Query{Text: m.Description + " " + m.Body, Files: files, Limit: limit}
}

// Alike reports whether r, a memory [ClosestQuery] found, is like the
// draft enough to be shown beside it: it is anchored to a file the draft
// names, or it holds two of the draft's words that are not numbers. One
// word in common (a year, or a verb like "keep") or nearness in meaning
// alone is what any two memories of a project have: shown as similar, it
// would teach the reviewer to ignore the line.
func Alike(r recall.Result) bool {
	for _, p := range r.Why.Relevance {
		if p.Name == "files" {
			return true
		}
	}
	n := 0
	for _, t := range r.Why.Terms {
		if strings.ContainsFunc(t, func(c rune) bool { return !unicode.IsDigit(c) }) {
			n++
		}
	}
	return n >= 2
}
