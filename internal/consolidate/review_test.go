package consolidate

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// reviewer is one process reviewing the inbox: its own vault handle (on
// the one lock file) and its own inbox.
func reviewer(t *testing.T, e *env) (*Inbox, *vault.Vault) {
	t.Helper()
	state := filepath.Dir(e.c.Inbox.Dir)
	pv, err := vault.Open(e.c.Project.Dir, vault.LockPath(state))
	if err != nil {
		t.Fatal(err)
	}
	in, err := OpenInbox(state)
	if err != nil {
		t.Fatal(err)
	}
	return in.LockWith(pv), pv
}

// TestConcurrentReview: two people (two processes) acting on one draft at
// once. One wins; the other is told the draft is gone ([ErrNoDraft]); the
// fact is in the vault once, or rejected once, never both and never twice.
func TestConcurrentReview(t *testing.T) {
	type act func(in *Inbox, v *vault.Vault, name string) error
	approve := func(in *Inbox, v *vault.Vault, name string) error {
		_, err := in.Approve(t.Context(), v, name, t0, nil)
		return err
	}
	reject := func(in *Inbox, v *vault.Vault, name string) error {
		return in.Reject(t.Context(), name, "wrong", t0)
	}
	tests := []struct {
		name       string
		a, b       act
		inVault    int // memories per draft after both acted
		rejections int // rejection records per draft
	}{
		{"two approvals", approve, approve, 1, 0},
		{"two rejections", reject, reject, 0, 1},
		{"approval and rejection", approve, reject, -1, -1}, // either wins, not both
	}
	const drafts = 12
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setup(t)
			for i := range drafts {
				m := memory.New(memory.Header{Name: fmt.Sprintf("gadget-port-%d", i), Description: fmt.Sprintf("Gadget port is %d", 9000+i),
					Type: memory.TypeProject, Created: t0, Source: "session:s1", Confidence: 0.6}, "Seen in its config.")
				if err := e.c.Inbox.Put(m); err != nil {
					t.Fatal(err)
				}
			}
			inA, vA := reviewer(t, e)
			inB, vB := reviewer(t, e)
			for i := range drafts {
				name := fmt.Sprintf("gadget-port-%d", i)
				var wg sync.WaitGroup
				var errA, errB error
				wg.Go(func() { errA = tt.a(inA, vA, name) })
				wg.Go(func() { errB = tt.b(inB, vB, name) })
				wg.Wait()
				if (errA == nil) == (errB == nil) {
					t.Errorf("%s: errors %v and %v, want exactly one to win", name, errA, errB)
				}
				for _, err := range []error{errA, errB} {
					if err != nil && !errors.Is(err, ErrNoDraft) {
						t.Errorf("%s: the loser's error %q does not say the draft is gone", name, err)
					}
				}
			}
			entries, _ := e.c.Project.List()
			rs, _ := e.c.Inbox.rejections()
			ds, _ := e.c.Inbox.List()
			if len(ds) != 0 {
				t.Errorf("%d drafts left, want 0", len(ds))
			}
			switch {
			case tt.inVault >= 0:
				if len(entries) != tt.inVault*drafts || len(rs) != tt.rejections*drafts {
					t.Errorf("%d memories and %d rejections, want %d and %d", len(entries), len(rs), tt.inVault*drafts, tt.rejections*drafts)
				}
			case len(entries)+len(rs) != drafts:
				t.Errorf("%d memories and %d rejections of %d drafts: a draft was both approved and rejected, or lost", len(entries), len(rs), drafts)
			}
		})
	}
}

// TestDraftReasons: a drafted fact is recorded with why it is a draft
// and the excerpt it came from, redacted and bounded; review reads them
// back for that draft only.
func TestDraftReasons(t *testing.T) {
	contra := Fact{Stated: true, Description: "The web frontend does not use pnpm any more; it uses npm as its package manager",
		Body: "Install packages in web/ with npm; pnpm was dropped.", Type: memory.TypeFeedback, Confidence: 0.95, Source: "session:s4"}
	tests := []struct {
		name  string
		first *Fact // in the vault before
		f     Fact
		want  []Reason
	}{
		{"inferred", nil, Fact{Description: "Gadget port is 9000", Confidence: 0.9, Source: "session:s1"}, []Reason{ReasonInferred}},
		{"agent", nil, Fact{Description: "Gadget port is 9000", Confidence: 0.9, Source: "agent"}, []Reason{ReasonAgent}},
		{"tool output", nil, Fact{Description: "Gadget port is 9000", Confidence: 0.9, Stated: true, FromToolOutput: true, Source: "session:s1"}, []Reason{ReasonToolOutput}},
		{"low confidence", nil, Fact{Description: "Gadget port is 9000", Confidence: 0.5, Stated: true, Source: "session:s1"}, []Reason{ReasonLowConfidence}},
		{"inferred from tool output", nil, Fact{Description: "Gadget port is 9000", Confidence: 0.9, FromToolOutput: true, Source: "session:s1"}, []Reason{ReasonInferred, ReasonToolOutput}},
		{"contradiction", &pnpm, contra, []Reason{ReasonContradiction}},
		{"proposed change", &pnpm, Fact{Description: pnpm.Description, Body: pnpm.Body + " Pin it with corepack.", Type: memory.TypeFeedback,
			Confidence: 0.6, Stated: true, Source: "session:s2"}, []Reason{ReasonProposed, ReasonLowConfidence}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setup(t)
			if tt.first != nil {
				e.add(t, *tt.first)
			}
			f := tt.f
			f.Excerpt = "user: the gadget listens on 9000, token ghp_" + strings.Repeat("a1B2", 9) + "\n" + strings.Repeat("x", 2*MaxExcerpt)
			o := e.add(t, f)
			if o.Where != "inbox" {
				t.Fatalf("Add = %+v, want a draft", o)
			}
			m, err := e.c.Inbox.Load(o.Name)
			if err != nil {
				t.Fatal(err)
			}
			d := Draft{Name: o.Name, Memory: m}
			link, _ := e.c.Inbox.LinkOf(o.Name)
			if got := e.c.Inbox.Reasons(d, link); !slices.Equal(got, tt.want) {
				t.Errorf("Reasons = %v, want %v", got, tt.want)
			}
			s, ok, err := e.c.Inbox.Drafting(d)
			if err != nil || !ok {
				t.Fatalf("Drafting = %v, %v: no record", ok, err)
			}
			if !strings.HasPrefix(s.Excerpt, "user: the gadget listens on 9000") || len(s.Excerpt) > MaxExcerpt || strings.Contains(s.Excerpt, "ghp_") {
				t.Errorf("excerpt = %q (%d bytes), want the text, redacted, at most %d bytes", s.Excerpt, len(s.Excerpt), MaxExcerpt)
			}
			if ss, _ := e.c.Inbox.Sightings(o.Name); len(ss) != 0 {
				t.Errorf("Sightings(%s) = %+v: the drafting is no sighting of the fact said again", o.Name, ss)
			}
		})
	}
}

// TestDraftingOfAnEarlierDraft: a draft rejected, then a draft of the same
// name written outside consolidation: the first one's record is not the
// second one's.
func TestDraftingOfAnEarlierDraft(t *testing.T) {
	e := setup(t)
	o := e.add(t, Fact{Description: "Gadget port is 9000", Confidence: 0.9, Source: "session:s1", Excerpt: "user: port 9000"})
	if err := e.c.Inbox.Reject(e.ctx, o.Name, "", t0); err != nil {
		t.Fatal(err)
	}
	m := memory.New(memory.Header{Name: o.Name, Description: "Gadget port is 9001", Type: memory.TypeProject, Created: e.c.Now.Add(time.Hour), Source: "agent"}, "x")
	if err := e.c.Inbox.Put(m); err != nil {
		t.Fatal(err)
	}
	d := Draft{Name: o.Name, Memory: m}
	if s, ok, _ := e.c.Inbox.Drafting(d); ok {
		t.Errorf("Drafting = %+v, want none: it is the rejected draft's", s)
	}
	if got := e.c.Inbox.Reasons(d, Link{}); !slices.Equal(got, []Reason{ReasonAgent}) {
		t.Errorf("Reasons = %v, want [agent] from its source", got)
	}
}
