package consolidate

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

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
