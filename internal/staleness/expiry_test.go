package staleness

import (
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

func TestPolicy(t *testing.T) {
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	p := DefaultPolicy()
	mem := func(h memory.Header) *memory.Memory { return memory.New(h, "b") }
	if got := p.ReviewBy(mem(memory.Header{Type: memory.TypeProject}), now); !got.Equal(time.Date(2027, 2, 28, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("project ReviewBy = %v", got)
	}
	if got := p.ReviewBy(mem(memory.Header{Type: memory.TypeProject, Tags: []string{"todo"}}), now); !got.Equal(time.Date(2026, 12, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("todo ReviewBy = %v", got)
	}
	if got := p.ReviewBy(mem(memory.Header{Type: memory.TypeFeedback}), now); !got.IsZero() {
		t.Errorf("feedback ReviewBy = %v, want none", got)
	}
	due := now.AddDate(0, 0, -10)
	tests := []struct {
		name   string
		h      memory.Header
		u      Usage
		reason string
	}{
		{"fresh", memory.Header{Type: memory.TypeProject, ReviewBy: now.AddDate(0, 1, 0)}, Usage{}, ""},
		{"due, never recalled", memory.Header{Type: memory.TypeProject, ReviewBy: due}, Usage{}, "due for review since 2026-11-20 and never recalled"},
		{"due, recalled since", memory.Header{Type: memory.TypeProject, ReviewBy: due}, Usage{LastRecalled: now.AddDate(0, 0, -2)}, ""},
		{"due, recalled before", memory.Header{Type: memory.TypeProject, ReviewBy: due}, Usage{LastRecalled: due.AddDate(0, 0, -5)},
			"due for review since 2026-11-20, last recalled 2026-11-15"},
		{"superseded", memory.Header{Status: memory.StatusSuperseded, SupersededBy: "new"}, Usage{}, "superseded by new"},
		{"suspect long", memory.Header{}, Usage{SuspectSince: now.AddDate(0, -2, 0)}, "suspect since 2026-09-30"},
		{"suspect briefly", memory.Header{}, Usage{SuspectSince: now.AddDate(0, 0, -3)}, ""},
	}
	for _, tt := range tests {
		reason, ok := p.Candidate(mem(tt.h), tt.u, now)
		if reason != tt.reason || ok != (tt.reason != "") {
			t.Errorf("%s: Candidate = %q %v, want %q", tt.name, reason, ok, tt.reason)
		}
	}
	if r, ok := p.DraftCandidate(mem(memory.Header{Created: now.AddDate(0, -2, 0)}), now); !ok || r != "draft waiting since 2026-09-30" {
		t.Errorf("old draft: %q %v", r, ok)
	}
}

func TestRetype(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	due := time.Date(2027, 1, 30, 0, 0, 0, 0, time.UTC)
	mem := func(typ memory.Type, reviewBy time.Time) *memory.Memory {
		return memory.New(memory.Header{Name: "x", Description: "x", Type: typ, ReviewBy: reviewBy}, "x")
	}
	tests := []struct {
		name          string
		before, after *memory.Memory
		want          time.Time
	}{
		{"project made feedback: no horizon", mem(memory.TypeProject, due), mem(memory.TypeFeedback, due), time.Time{}},
		{"feedback made project: 90 days", mem(memory.TypeFeedback, time.Time{}), mem(memory.TypeProject, time.Time{}), time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)},
		{"same type: kept", mem(memory.TypeProject, due), mem(memory.TypeProject, due), due},
		{"a date set by the change: kept", mem(memory.TypeProject, due), mem(memory.TypeFeedback, now), now},
	}
	for _, tt := range tests {
		Retype(tt.before, tt.after, now)
		if !tt.after.ReviewBy.Equal(tt.want) {
			t.Errorf("%s: review_by = %v, want %v", tt.name, tt.after.ReviewBy, tt.want)
		}
	}
}
