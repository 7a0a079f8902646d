package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// A Checker verifies memories against the repository, as 'mnemo verify'
// does: the Stale page offers its fixes through it.
type Checker interface {
	// Check verifies m now: renames found by git or by content included.
	Check(ctx context.Context, m *memory.Memory) staleness.Result
	// Record keeps a verdict, as 'mnemo verify' records it.
	Record(ctx context.Context, where, name string, r staleness.Result) error
	// Reanchor returns m with its anchored files hashed again at the
	// current commit ([staleness.Fix] with no rename), and whether that
	// changes anything.
	Reanchor(ctx context.Context, m *memory.Memory) (*memory.Memory, bool)
}

// A staleRow is a memory that verify found suspect, or that gc would delete.
type staleRow struct {
	row
	Expired string   // why gc would delete it; empty when it would not
	Renames []rename // where its files went, to follow
	Fixable bool     // it has anchors to hash again
	Seen    string   // its files as the page shows them ([anchored]), which Re-anchor records
}

// A rename is an anchored or named path that moved.
type rename struct{ From, To string }

func (s *Server) stale(w http.ResponseWriter, r *http.Request) {
	p, now := staleness.DefaultPolicy(), s.cfg.Now()
	var out []staleRow
	for _, rw := range s.rows(r) {
		sr := staleRow{row: rw}
		if why, ok := p.Candidate(rw.M, staleness.Usage{SuspectSince: rw.Since, LastRecalled: rw.Last}, now); ok {
			sr.Expired = why
		}
		if sr.Suspect != "" && s.cfg.Checker != nil {
			for from, to := range s.cfg.Checker.Check(r.Context(), rw.M).Renames {
				sr.Renames = append(sr.Renames, rename{from, to})
			}
			slices.SortFunc(sr.Renames, func(a, b rename) int { return strings.Compare(a.From, b.From) })
			sr.Fixable = len(rw.M.Anchors.Files) > 0
			if sr.Fixable {
				fixed, _ := s.cfg.Checker.Reanchor(r.Context(), rw.M)
				sr.Seen = anchored(fixed)
			}
		}
		if sr.Suspect != "" || sr.Expired != "" {
			out = append(out, sr)
		}
	}
	s.render(w, r, "stale", view{Title: "Stale", Nav: "stale", Data: out})
}

// follow takes a suspect memory along a rename the check finds now (not
// one the form merely names): the path in its anchors and body, through
// the vault's Update, then records the new verdict.
func (s *Server) follow(w http.ResponseWriter, r *http.Request) {
	v, m, ok := s.lookup(w, r)
	if !ok || !s.checking(w) {
		return
	}
	name, from, to := r.PathValue("name"), r.PostForm.Get("from"), r.PostForm.Get("to")
	if got := s.cfg.Checker.Check(r.Context(), m).Renames[from]; from == "" || got != to {
		back(w, r, "/stale", "err", fmt.Sprintf("%s: no rename of %q to %q to follow (run mnemo verify)", name, from, to))
		return
	}
	now := s.cfg.Now().UTC()
	s.fixed(w, r, v.Update, name, func(cur *memory.Memory) error {
		*cur = *staleness.Follow(cur, from, to)
		cur.Updated = now
		return nil
	}, "followed "+from+" to "+to+" in "+name)
}

// reanchor records the current content and commit of a memory's anchored
// files as verified: the person confirms it still holds.
func (s *Server) reanchor(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok || !s.checking(w) {
		return
	}
	name, now, seen := r.PathValue("name"), s.cfg.Now().UTC(), r.PostForm.Get("seen")
	s.fixed(w, r, v.Update, name, func(cur *memory.Memory) error {
		fixed, changed := s.cfg.Checker.Reanchor(r.Context(), cur)
		if !changed {
			return fmt.Errorf("%s: its anchors are as the files are now: nothing to re-anchor", name)
		}
		if anchored(fixed) != seen {
			return fmt.Errorf("%s: its files changed since this page was loaded: reload it, look at them again, then re-anchor", name)
		}
		cur.Anchors, cur.Updated = fixed.Anchors, now
		return nil
	}, "re-anchored "+name)
}

// anchored identifies the content of a memory's anchored files, path and
// hash each, so that a re-anchor records only what the person was shown.
func anchored(m *memory.Memory) string {
	var b strings.Builder
	for _, f := range m.Anchors.Files {
		b.WriteString(f.Path + ":" + f.SHA256 + " ")
	}
	return b.String()
}

// checking writes an error when there is no repository to check against.
func (s *Server) checking(w http.ResponseWriter) bool {
	if s.cfg.Checker == nil {
		http.Error(w, "mnemo ui: no repository to verify against", http.StatusNotFound)
		return false
	}
	return true
}

type updater func(ctx context.Context, name string, fn func(*memory.Memory) error) (*memory.Memory, error)

// fixed applies a fix through update, records the verdict of the memory
// as written, and goes back to the Stale page.
func (s *Server) fixed(w http.ResponseWriter, r *http.Request, update updater, name string, fn func(*memory.Memory) error, msg string) {
	m, err := update(r.Context(), name, fn)
	if err != nil {
		back(w, r, "/stale", "err", err.Error())
		return
	}
	res := s.cfg.Checker.Check(r.Context(), m)
	if err := s.cfg.Checker.Record(r.Context(), r.PathValue("where"), name, res); err != nil {
		back(w, r, "/stale", "err", msg+", but its verdict was not recorded: "+err.Error())
		return
	}
	back(w, r, "/stale", "msg", msg+": "+string(res.State))
}
