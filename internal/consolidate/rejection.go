package consolidate

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// A Rejection is a draft a person turned down: one line of rejected.jsonl,
// the state folder's (this person's own) or the project vault's (the
// team's, committed: [TeamRejections]).
type Rejection struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Body        string `json:"body,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// By is who rejected it, as git names them (user.name); records
	// written before it was kept have none.
	By string    `json:"by,omitempty"`
	At time.Time `json:"at"`
	// Own reports that the person of this machine rejected it. It is
	// never taken from a line (anyone may commit one to the team's file):
	// the file decides. What this person rejects is recorded in the state
	// folder, which no one else writes, and in the team's file too; a
	// line only in the team's file is the team's, even one this person
	// wrote before their own were kept apart: drafted again, it waits for
	// review, where dropping it would lose what a teammate stated.
	Own bool `json:"own,omitempty"`
}

// A rejectedFact is a rejection, its text read for comparison.
type rejectedFact struct {
	Rejection
	text string
	st   *statement
}

// readRejections returns what reads the rejections recorded in a file,
// parsed for comparison: own says whether the file is the state folder's.
func readRejections(own bool) func(path string) ([]rejectedFact, error) {
	return func(path string) ([]rejectedFact, error) {
		rs, err := readJSONL[Rejection](path)
		if err != nil {
			return nil, err
		}
		facts := make([]rejectedFact, 0, len(rs))
		for _, r := range rs {
			if expiredByGC(r) {
				continue
			}
			r.Own = own
			t := r.Description + "\n" + r.Body
			facts = append(facts, rejectedFact{Rejection: r, text: t, st: parseStatement(t)})
		}
		return facts, nil
	}
}

// gcExpiry is how the reason of a line began that 'mnemo gc --apply'
// wrote, before [Inbox.Expire], for a draft it removed: "gc: draft waiting
// since 2026-11-01".
const gcExpiry = "gc: draft waiting since "

// expiredByGC reports whether r is such a line: a draft that expired, which
// no one judged. It is no rejection, neither a veto nor a teammate's
// evidence, or the fact it held would be dropped when a person states it.
func expiredByGC(r Rejection) bool {
	day, ok := strings.CutPrefix(r.Reason, gcExpiry)
	if !ok {
		return false
	}
	_, err := time.Parse(time.DateOnly, day)
	return err == nil
}

// rejection returns the rejection of a draft that said what m says, in
// these words or others that name the same values: this person's own if
// there is one, else the team's latest; ok is false when there is none.
func (c *Consolidator) rejection(ctx context.Context, m *memory.Memory, cand *statement) (r Rejection, ok bool, err error) {
	rs, err := c.Inbox.rejections()
	if err != nil {
		return Rejection{}, false, err
	}
	for _, f := range rs {
		if !paraphrases(f.st, cand, c.similarity(ctx, f.text, text(m), f.st, cand)) {
			continue
		}
		if f.Own {
			return f.Rejection, true, nil
		}
		if !ok || f.At.After(r.At) {
			r, ok = f.Rejection, true
		}
	}
	return r, ok, nil
}

// vetoes reports whether r, a rejection of a draft that said what f says,
// drops f. This person's own rejection does: that is what rejecting is
// for. A teammate's is evidence, not a veto over what this person said
// after it: a fact of their own words ([Fact.Stated]) said after r goes
// for review, with r as a reason ([ReasonTeamRejected]). What they did not
// state, or stated before r, is dropped.
func vetoes(r Rejection, f Fact, said time.Time) bool {
	return r.Own || !f.Stated || !said.After(r.At)
}

// shown is r as review and logs show it: redacted (the team's file is
// anyone's commit, and a draft written by hand may hold a secret), each
// field one clean line of at most [memory.MaxDescriptionLen] characters,
// the body left out.
func (r Rejection) shown() *Rejection {
	s := &Rejection{Description: clipLine(redact.String(r.Description)), Reason: clipLine(redact.String(r.Reason)),
		By: printable(clipLine(redact.String(r.By))), At: r.At.UTC(), Own: r.Own}
	if memory.ValidName(r.Name) {
		s.Name = r.Name
	}
	return s
}

// String says whose rejection r is, when it was made, what the draft said
// and why it was rejected, for a person.
func (r Rejection) String() string {
	var b strings.Builder
	b.WriteString("rejected by ")
	switch {
	case r.Own:
		b.WriteString("you")
	case r.By != "":
		b.WriteString(r.By)
	default:
		b.WriteString("a teammate")
	}
	if !r.At.IsZero() {
		b.WriteString(" on " + r.At.UTC().Format(time.DateOnly))
	}
	fmt.Fprintf(&b, " (said %q", r.Description)
	if r.Reason != "" {
		fmt.Fprintf(&b, "; reason: %q", r.Reason)
	}
	b.WriteString(")")
	return b.String()
}

// printable is s without the characters a terminal does not print as
// themselves (a direction override could make a name read as another):
// [Rejection.String] quotes the other fields, not the name.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return -1
		}
		return r
	}, s)
}

// clipLine is s as one clean line ([memory.CleanLine]) of at most
// [memory.MaxDescriptionLen] characters, cut with an ellipsis.
func clipLine(s string) string {
	s = memory.CleanLine(s)
	if utf8.RuneCountInString(s) > memory.MaxDescriptionLen {
		s = string([]rune(s)[:memory.MaxDescriptionLen-1]) + "…"
	}
	return s
}
