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

// memoryDelete deletes a memory through the vault.
func (s *Server) memoryDelete(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	if err := v.Delete(r.Context(), name); err != nil {
		back(w, r, memLink(r.PathValue("where"), name), "err", err.Error())
		return
	}
	back(w, r, "/memories", "msg", "deleted "+name)
}
