package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// errChanged is an edit of a file that changed since the page showed it.
var errChanged = errors.New("the memory changed since this page was loaded: reload it and edit again")

// memoryEdit replaces a memory with the file text from the form, validated
// as 'mnemo edit' validates it (parsed, header checked, relative dates
// made absolute, updated set to now), through the vault's Update, which
// checks secrets and refuses a changed name.
func (s *Server) memoryEdit(w http.ResponseWriter, r *http.Request) {
	v, _, ok := s.lookup(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	page := memLink(r.PathValue("where"), name)
	text := strings.ReplaceAll(r.PostForm.Get("text"), "\r\n", "\n")
	before := strings.ReplaceAll(r.PostForm.Get("before"), "\r\n", "\n")
	file := name + ".md"
	m, err := memory.Parse(file, []byte(text))
	if err == nil {
		err = m.Validate(file)
	}
	if err != nil {
		back(w, r, page, "err", err.Error())
		return
	}
	now := s.cfg.Now().UTC()
	m.Updated = now
	m.Description, m.Body = memory.AbsoluteDates(m.Description, now), memory.AbsoluteDates(m.Body, now)
	_, err = v.Update(r.Context(), name, func(cur *memory.Memory) error {
		if string(cur.Render()) != before {
			return errChanged
		}
		staleness.Retype(cur, m, now)
		*cur = *m
		return nil
	})
	if err != nil {
		back(w, r, page, "err", err.Error())
		return
	}
	back(w, r, page, "msg", "saved "+name)
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
