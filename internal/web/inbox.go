package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/edit"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A draftView is one draft as the inbox shows it.
type draftView struct {
	Name      string
	M         *memory.Memory
	Where     string               // the vault it would go to: project or user
	Session   string               // the session it came from, when its source names one
	Reasons   []consolidate.Reason // why it is a draft
	Reason    string               // the same, in words
	Excerpt   string               // the lines of the session it was taken from
	Link      consolidate.Link
	Old       *memory.Memory // the memory it contradicts or changes
	OldWhere  string
	Diff      []diffLine // a proposed change: the old body against the new
	Similar   []recall.Result
	Sightings []consolidate.Sighting
}

// vaultFor returns the vault a draft of type t goes to.
func (s *Server) vaultFor(t memory.Type) (*vault.Vault, string) {
	if t == memory.TypeUser && s.cfg.User != nil {
		return s.cfg.User, "user"
	}
	return s.cfg.Project, "project"
}

// vaultNamed returns the vault called where ("project" or "user"), or nil.
func (s *Server) vaultNamed(where string) *vault.Vault {
	switch where {
	case "project":
		return s.cfg.Project
	case "user":
		return s.cfg.User
	}
	return nil
}

func (s *Server) draftView(ctx context.Context, d consolidate.Draft, links map[string]consolidate.Link) draftView {
	v := draftView{Name: d.Name, M: d.Memory, Link: links[d.Name]}
	_, v.Where = s.vaultFor(d.Memory.Type)
	v.Session, _ = strings.CutPrefix(d.Memory.Source, "session:")
	if v.Session == d.Memory.Source {
		v.Session = ""
	}
	v.Reasons = s.cfg.Inbox.Reasons(d, v.Link)
	rec, ok, _ := s.cfg.Inbox.Drafting(d)
	v.Reason = consolidate.Explain(v.Reasons, v.Link, rec.Rejection)
	if ok {
		v.Excerpt = rec.Excerpt
	}
	if v.Link.Memory != "" {
		if ov := s.vaultNamed(v.Link.Where); ov != nil {
			if old, err := ov.Load(v.Link.Memory); err == nil {
				v.Old, v.OldWhere = old, v.Link.Where
				if v.Link.Kind == consolidate.LinkChanges {
					v.Diff = diffLines(old.Description+"\n\n"+old.Body, d.Memory.Description+"\n\n"+d.Memory.Body)
				}
			}
		}
	}
	v.Sightings, _ = s.cfg.Inbox.Sightings(d.Name)
	v.Similar = s.similar(ctx, d.Memory, v.Link.Memory)
	return v
}

// similar returns the memories closest to m by recall that are like it
// ([consolidate.Alike]), leaving out the one it is linked to (shown
// beside it already).
func (s *Server) similar(ctx context.Context, m *memory.Memory, linked string) []recall.Result {
	if s.cfg.Search == nil {
		return nil
	}
	rs, err := s.cfg.Search(ctx, consolidate.ClosestQuery(m, 4))
	if err != nil {
		return nil
	}
	out := rs[:0]
	for _, r := range rs {
		if r.Name != linked && consolidate.Alike(r) && len(out) < 3 {
			out = append(out, r)
		}
	}
	return out
}

type inboxData struct {
	Drafts  []draftView
	Natives []nativeView
}

func (s *Server) inbox(w http.ResponseWriter, r *http.Request) {
	drafts, err := s.cfg.Inbox.List()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	links, _ := s.cfg.Inbox.Links()
	d := inboxData{Drafts: make([]draftView, 0, len(drafts)), Natives: s.natives()}
	for _, dr := range drafts {
		d.Drafts = append(d.Drafts, s.draftView(r.Context(), dr, links))
	}
	s.render(w, r, "inbox", view{Title: "Inbox", Nav: "inbox", Data: d})
}

// inboxAction approves or rejects the drafts named in the form.
func (s *Server) inboxAction(w http.ResponseWriter, r *http.Request) {
	names := r.PostForm["name"]
	if len(names) == 0 {
		back(w, r, "/", "err", "select a draft first")
		return
	}
	var done []string
	for _, n := range names {
		var err error
		switch r.PostForm.Get("action") {
		case "approve":
			_, err = s.approve(r.Context(), n, nil)
		case "reject":
			err = s.cfg.Inbox.Reject(r.Context(), n, r.PostForm.Get("reason"), s.cfg.Now().UTC())
		default:
			err = fmt.Errorf("unknown action %q", r.PostForm.Get("action"))
		}
		if err != nil {
			back(w, r, "/", "err", err.Error())
			return
		}
		done = append(done, n)
	}
	back(w, r, "/", "msg", strings.TrimSuffix(r.PostForm.Get("action"), "e")+"ed "+strings.Join(done, ", "))
}

// approve moves a draft into its vault through the inbox.
func (s *Server) approve(ctx context.Context, name string, edit func(*memory.Memory) error) (string, error) {
	d, err := s.cfg.Inbox.Load(name)
	if err != nil {
		return "", err
	}
	v, _ := s.vaultFor(d.Type)
	return s.cfg.Inbox.Approve(ctx, v, name, s.cfg.Now().UTC(), edit)
}

func (s *Server) draftEdit(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	m, err := s.cfg.Inbox.Load(name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	s.render(w, r, "draft_edit", view{Title: "Edit " + name, Nav: "inbox", Data: draftView{Name: name, M: m}})
}

// draftEditApprove approves a draft with the description and body from
// the form, validated as the CLI validates an edit.
func (s *Server) draftEditApprove(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	got, err := s.approve(r.Context(), name, func(m *memory.Memory) error {
		before := m.Clone()
		m.Description = strings.TrimSpace(r.PostForm.Get("description"))
		m.Body = strings.ReplaceAll(r.PostForm.Get("body"), "\r\n", "\n")
		if m.Body != "" && !strings.HasSuffix(m.Body, "\n") {
			m.Body += "\n"
		}
		edit.Settle(before, m, s.cfg.Now())
		return m.Validate("")
	})
	if err != nil {
		back(w, r, "/inbox/"+name+"/edit", "err", err.Error())
		return
	}
	back(w, r, "/", "msg", "approved "+got)
}

// resolve settles a contradiction: keep the old memory (the draft is
// rejected), keep the new one (approved; the old one marked superseded by
// it), or keep both (approved).
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	l, err := s.cfg.Inbox.LinkOf(name)
	if err != nil || l.Kind != consolidate.LinkContradicts {
		back(w, r, "/", "err", name+" is not a contradiction")
		return
	}
	now := s.cfg.Now().UTC()
	switch r.PostForm.Get("keep") {
	case "old":
		err = s.cfg.Inbox.Reject(r.Context(), name, "kept "+l.Memory, now)
	case "both":
		_, err = s.approve(r.Context(), name, nil)
	case "new":
		var got string
		if got, err = s.approve(r.Context(), name, nil); err == nil {
			err = s.supersede(r.Context(), l, got)
		}
	default:
		err = fmt.Errorf("keep old, new or both")
	}
	if err != nil {
		back(w, r, "/", "err", err.Error())
		return
	}
	back(w, r, "/", "msg", "resolved "+name+": kept "+r.PostForm.Get("keep"))
}

// supersede marks the memory a link names superseded by by.
func (s *Server) supersede(ctx context.Context, l consolidate.Link, by string) error {
	v := s.vaultNamed(l.Where)
	if v == nil {
		return fmt.Errorf("no %s vault for %s", l.Where, l.Memory)
	}
	_, err := v.Update(ctx, l.Memory, func(m *memory.Memory) error {
		m.Status, m.SupersededBy, m.Updated = memory.StatusSuperseded, by, s.cfg.Now().UTC()
		return nil
	})
	return err
}
