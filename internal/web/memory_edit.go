package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/edit"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// memoryEdit replaces a memory with the file text from the form, edited
// from the text in before, as 'mnemo edit' does it ([edit.Apply]).
func (s *Server) memoryEdit(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	page := memLink(r.PathValue("where"), name)
	text := strings.ReplaceAll(r.PostForm.Get("text"), "\r\n", "\n")
	before := strings.ReplaceAll(r.PostForm.Get("before"), "\r\n", "\n")
	_, err := edit.Apply(r.Context(), v, name, []byte(before), []byte(text), s.cfg.Now())
	switch {
	case errors.Is(err, vault.ErrNoChange):
		back(w, r, page, "msg", "no change to "+name)
	case errors.Is(err, edit.ErrChanged):
		back(w, r, page, "err", err.Error()+": reload the page and edit again")
	case err != nil:
		back(w, r, page, "err", err.Error())
	default:
		back(w, r, page, "msg", "saved "+name)
	}
}

// memoryRename renames a memory and rewrites the links that point at it.
func (s *Server) memoryRename(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	where, name, to := r.PathValue("where"), r.PathValue("name"), strings.TrimSpace(r.PostForm.Get("to"))
	if err := v.Rename(r.Context(), name, to); err != nil {
		back(w, r, memLink(where, name), "err", err.Error())
		return
	}
	back(w, r, memLink(where, to), "msg", "renamed "+name+" to "+to)
}

// memoryDelete takes a memory out of its vault, keeping it in the state
// folder: see [Server.moveOut].
func (s *Server) memoryDelete(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	if err := s.moveOut(r, v, name); err != nil {
		back(w, r, memLink(r.PathValue("where"), name), "err", err.Error())
		return
	}
	back(w, r, "/memories", "msg", "removed "+name+" (kept in the state folder's "+vault.ForgottenDir+"/)")
}

// moveOut takes a memory out of v, the vault r names, as 'mnemo rm' does:
// nothing is destroyed ([vault.Vault.MoveOut]).
func (s *Server) moveOut(r *http.Request, v *vault.Vault, name string) error {
	rm := vault.Removal{Vault: r.PathValue("where"), Reason: "deleted on the review page", Source: "mnemo ui", At: s.cfg.Now()}
	_, err := v.MoveOut(r.Context(), rm, name)
	return err
}
