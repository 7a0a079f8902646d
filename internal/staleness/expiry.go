package staleness

import (
	"fmt"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A Policy is the expiry rule: when a memory is due for review, and when a
// memory or draft becomes a candidate for removal. Nothing is removed by
// the policy itself: mnemo gc lists candidates, and deletes them only
// when asked (and never from a hook).
type Policy struct {
	// Horizons: how long a memory of each type holds before it is due for
	// review. A type without one (user, feedback) never is.
	Horizons map[memory.Type]time.Duration
	// TodoHorizon replaces the horizon of project memories tagged todo.
	TodoHorizon time.Duration
	// SuspectFor: a memory suspect this long is a candidate.
	SuspectFor time.Duration
	// DraftAge: a draft waiting this long is a candidate.
	DraftAge time.Duration
}

const day = 24 * time.Hour

// DefaultPolicy is DESIGN.md's rule: project memories are due for review
// after 90 days, references after 180, todos after 30; suspect memories
// and drafts become candidates after 30 days.
func DefaultPolicy() Policy {
	return Policy{
		Horizons:    map[memory.Type]time.Duration{memory.TypeProject: 90 * day, memory.TypeReference: 180 * day},
		TodoHorizon: 30 * day,
		SuspectFor:  30 * day,
		DraftAge:    30 * day,
	}
}

// ReviewBy returns when a memory written at now is due for review, or the
// zero time when it never is.
func (p Policy) ReviewBy(m *memory.Memory, now time.Time) time.Time {
	d, ok := p.Horizons[m.Type]
	if !ok {
		return time.Time{}
	}
	for _, t := range m.Tags {
		if t == "todo" && p.TodoHorizon > 0 {
			d = p.TodoHorizon
		}
	}
	y, mo, dd := now.Add(d).UTC().Date()
	return time.Date(y, mo, dd, 0, 0, 0, 0, time.UTC)
}

// Usage is what the state knows of a memory's use and health.
type Usage struct {
	LastRecalled time.Time // zero: never recalled
	SuspectSince time.Time // zero: not suspect
}

// Candidate reports whether a memory is a candidate for removal, and why.
func (p Policy) Candidate(m *memory.Memory, u Usage, now time.Time) (string, bool) {
	switch {
	case m.Status == memory.StatusSuperseded:
		return "superseded by " + m.SupersededBy, true
	case !u.SuspectSince.IsZero() && now.Sub(u.SuspectSince) >= p.SuspectFor:
		return fmt.Sprintf("suspect since %s", u.SuspectSince.Format(time.DateOnly)), true
	case !m.ReviewBy.IsZero() && now.After(m.ReviewBy) && u.LastRecalled.Before(m.ReviewBy):
		if u.LastRecalled.IsZero() {
			return fmt.Sprintf("due for review since %s and never recalled", m.ReviewBy.Format(time.DateOnly)), true
		}
		return fmt.Sprintf("due for review since %s, last recalled %s", m.ReviewBy.Format(time.DateOnly), u.LastRecalled.Format(time.DateOnly)), true
	}
	return "", false
}

// DraftCandidate reports whether a draft has waited too long for review.
func (p Policy) DraftCandidate(m *memory.Memory, now time.Time) (string, bool) {
	if m.Created.IsZero() || now.Sub(m.Created) < p.DraftAge {
		return "", false
	}
	return fmt.Sprintf("draft waiting since %s", m.Created.Format(time.DateOnly)), true
}
