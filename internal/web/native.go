package web

import (
	"net/http"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// A nativeView is a memory file written into a vault outside mnemo (by an
// agent's own memory tool, or by hand): it waits for review where it is.
type nativeView struct {
	provenance.Native
	Where string
	Body  string // redacted: a hand-written file may hold a secret
}

// natives lists the unreviewed files of both vaults, with what the
// provenance check found in each.
func (s *Server) natives() []nativeView {
	secrets := redact.New(redact.Options{})
	var out []nativeView
	for _, where := range []string{"project", "user"} {
		v := s.vaultNamed(where)
		if v == nil {
			continue
		}
		entries, _ := v.List()
		ms := make([]*memory.Memory, len(entries))
		bodies := make(map[string]string, len(entries))
		for i, e := range entries {
			ms[i], bodies[e.Name] = e.Memory, e.Memory.Body
		}
		for _, n := range provenance.Natives(ms, secrets) {
			out = append(out, nativeView{Native: n, Where: where, Body: redact.String(bodies[n.Name])})
		}
	}
	return out
}

// native approves a file written outside mnemo where it is (it gets
// source: import:native, as 'mnemo approve' gives it) or deletes it.
func (s *Server) native(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	var err error
	switch r.PostForm.Get("action") {
	case "approve":
		_, err = v.Update(r.Context(), name, func(m *memory.Memory) error {
			m.Approve()
			return nil
		})
	case "delete":
		err = s.moveOut(r, v, name)
	default:
		back(w, r, "/", "err", "approve or delete")
		return
	}
	if err != nil {
		back(w, r, "/", "err", err.Error())
		return
	}
	back(w, r, "/", "msg", r.PostForm.Get("action")+"d "+name)
}
