package web

import (
	"cmp"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A row is one memory in a listing.
type row struct {
	Where   string
	Name    string
	M       *memory.Memory
	Suspect string    // why verify found it stale; empty when it is not
	Since   time.Time // when it became suspect
	Recalls int       // times recalled
	Last    time.Time // last recalled; zero: never
	Score   float64
	Why     *recall.Why // with a search: how it was ranked
}

// filter is the Memories page's form.
type filter struct {
	Q, Type, Status, Tag, Source, Sort string
	Stale                              bool
}

func (f filter) keep(r row) bool {
	m := r.M
	return (f.Type == "" || string(m.Type) == f.Type) &&
		(f.Status == "" || string(m.Status) == f.Status) &&
		(f.Tag == "" || slices.Contains(m.Tags, f.Tag)) &&
		(f.Source == "" || strings.HasPrefix(m.Source, f.Source)) &&
		(!f.Stale || r.Suspect != "")
}

// rows lists the memories of both vaults, with what verify said of each.
func (s *Server) rows(r *http.Request) []row {
	suspects := map[index.Key]index.Verdict{}
	if s.cfg.Suspects != nil {
		if vs, err := s.cfg.Suspects(r.Context()); err == nil {
			suspects = vs
		}
	}
	usage := map[index.Key]index.Doc{}
	if s.cfg.Docs != nil {
		if docs, err := s.cfg.Docs(r.Context()); err == nil {
			for _, d := range docs {
				usage[d.Key] = d
			}
		}
	}
	var out []row
	for _, where := range []string{"project", "user"} {
		v := s.vaultNamed(where)
		if v == nil {
			continue
		}
		entries, _ := v.List()
		for _, e := range entries {
			key := index.Key{Source: where, Name: e.Name}
			rw := row{Where: where, Name: e.Name, M: e.Memory, Recalls: usage[key].Recalls, Last: usage[key].LastRecalled}
			if vd, ok := suspects[key]; ok {
				rw.Suspect, rw.Since = cmp.Or(strings.Join(vd.Reasons, "; "), vd.State), vd.Since
			}
			out = append(out, rw)
		}
	}
	return out
}

type memoriesData struct {
	F        filter
	Rows     []row
	Types    []memory.Type
	Tags     []string
	Total    int
	NoRecall bool
	Dups     []dupGroup // near duplicates, shown without a search
}

func (s *Server) memories(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := filter{Q: strings.TrimSpace(q.Get("q")), Type: q.Get("type"), Status: q.Get("status"), Tag: q.Get("tag"),
		Source: q.Get("source"), Sort: q.Get("sort"), Stale: q.Get("stale") != ""}
	all := s.rows(r)
	d := memoriesData{F: f, Types: memory.Types, Total: len(all), NoRecall: s.cfg.Search == nil}
	if f.Q == "" {
		d.Dups = duplicates(all)
	}
	tags := map[string]bool{}
	for _, rw := range all {
		for _, t := range rw.M.Tags {
			tags[t] = true
		}
	}
	for t := range tags {
		d.Tags = append(d.Tags, t)
	}
	slices.Sort(d.Tags)
	rows := all
	if f.Q != "" && s.cfg.Search != nil {
		rows = s.search(r, f.Q, all)
	} else {
		slices.SortFunc(rows, func(a, b row) int {
			switch f.Sort {
			case "name":
				return strings.Compare(a.Name, b.Name)
			case "recalls":
				if c := b.Recalls - a.Recalls; c != 0 {
					return c
				}
			}
			return b.M.Updated.Compare(a.M.Updated)
		})
	}
	for _, rw := range rows {
		if f.keep(rw) {
			d.Rows = append(d.Rows, rw)
		}
	}
	s.render(w, r, "memories", view{Title: "Memories", Nav: "memories", Data: d})
}

// search ranks the memories by mnemo's recall, with its explanation.
func (s *Server) search(r *http.Request, text string, all []row) []row {
	rs, err := s.cfg.Search(r.Context(), recall.Query{Text: text, Limit: 50, Now: s.cfg.Now()})
	if err != nil {
		return nil
	}
	byKey := map[index.Key]row{}
	for _, rw := range all {
		byKey[index.Key{Source: rw.Where, Name: rw.Name}] = rw
	}
	var out []row
	for _, res := range rs {
		rw, ok := byKey[res.Key]
		if !ok {
			continue
		}
		rw.Score, rw.Why = res.Score, &res.Why
		out = append(out, rw)
	}
	return out
}

type memoryData struct {
	Where, Name string
	M           *memory.Memory
	Text        string // the file as it is, for the editor
	Backlinks   []string
	Dangling    []string // links of its body to memories that do not exist
	Suspect     string
	Recalls     int
	Last        time.Time
	Sightings   []consolidate.Sighting
	Drafts      []consolidate.Link
}

// lookup returns the vault and memory a /m/{where}/{name} path names, or
// writes a 404: only a vault by its name and a memory by a valid name.
func (s *Server) lookup(w http.ResponseWriter, r *http.Request) (*vault.Vault, *memory.Memory, bool) {
	v, name := s.vaultNamed(r.PathValue("where")), r.PathValue("name")
	if v == nil || !memory.ValidName(name) {
		http.Error(w, "mnemo ui: no such memory", http.StatusNotFound)
		return nil, nil, false
	}
	m, err := v.Load(name)
	if err != nil {
		http.Error(w, "mnemo ui: "+err.Error(), http.StatusNotFound)
		return nil, nil, false
	}
	return v, m, true
}

func (s *Server) memory(w http.ResponseWriter, r *http.Request) {
	v, m, ok := s.lookup(w, r)
	if !ok {
		return
	}
	where, name := r.PathValue("where"), r.PathValue("name")
	entries, _ := v.List()
	g := vault.LinkGraph(entries)
	d := memoryData{Where: where, Name: name, M: m, Text: string(m.Render()), Backlinks: g.Backlinks[name]}
	for _, l := range m.Links() {
		if _, ok := g.Dangling[l]; ok {
			d.Dangling = append(d.Dangling, l)
		}
	}
	for _, rw := range s.rows(r) {
		if rw.Where == where && rw.Name == name {
			d.Suspect, d.Recalls, d.Last = rw.Suspect, rw.Recalls, rw.Last
		}
	}
	d.Sightings, _ = s.cfg.Inbox.Sightings(name)
	d.Drafts, _ = s.cfg.Inbox.LinksTo(name)
	s.render(w, r, "memory", view{Title: name, Nav: "memories", Data: d})
}
