package web

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// errMergeChanged is a merge of a group one of whose memories changed
// since the page showed it.
var errMergeChanged = errors.New("a memory of the group changed since this page was loaded: reload it and merge again")

// A dupGroup is memories of one vault that say one fact, by
// consolidation's own test ([consolidate.Text.SameFact]): what the
// Memories page offers to merge.
type dupGroup struct {
	Where   string
	Members []row // most recalled first, then the oldest
}

// maxDupScan bounds the memories of a vault compared pairwise for
// duplicates on each view of the page.
const maxDupScan = 2000

// duplicates groups the active memories of each vault that say the same
// fact. A vault past maxDupScan memories is not compared.
func duplicates(rows []row) []dupGroup {
	var out []dupGroup
	for _, where := range []string{"project", "user"} {
		var rs []row
		for _, r := range rows {
			if r.Where == where && r.M.Status != memory.StatusSuperseded {
				rs = append(rs, r)
			}
		}
		if len(rs) > maxDupScan {
			continue
		}
		out = append(out, sameFactGroups(where, rs)...)
	}
	return out
}

// sameFactGroups joins the rows that say the same fact, pair by pair, into
// groups of two or more.
func sameFactGroups(where string, rs []row) []dupGroup {
	texts := make([]*consolidate.Text, len(rs))
	for i, r := range rs {
		texts[i] = consolidate.NewText(r.M.Description + "\n" + r.M.Body)
	}
	group := make([]int, len(rs)) // union-find parents
	for i := range group {
		group[i] = i
	}
	root := func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if root(i) != root(j) && texts[i].SameFact(texts[j]) {
				group[root(j)] = root(i)
			}
		}
	}
	byRoot := map[int][]row{}
	for i, r := range rs {
		byRoot[root(i)] = append(byRoot[root(i)], r)
	}
	var out []dupGroup
	for _, members := range byRoot {
		if len(members) < 2 {
			continue
		}
		slices.SortFunc(members, func(a, b row) int {
			return cmp.Or(b.Recalls-a.Recalls, a.M.Created.Compare(b.M.Created), strings.Compare(a.Name, b.Name))
		})
		out = append(out, dupGroup{Where: where, Members: members})
	}
	slices.SortFunc(out, func(a, b dupGroup) int { return strings.Compare(a.Members[0].Name, b.Members[0].Name) })
	return out
}

// fold gives k, the memory kept, what the person chose of g: its
// description and body when g is the member named by text, its provenance
// when it is the one named by prov, and its tags.
func fold(k, g *memory.Memory, text, prov string) {
	if g.Name == text {
		k.Description, k.Body = g.Description, g.Body
	}
	if g.Name == prov {
		k.Source, k.Why, k.Created, k.Confidence, k.Anchors = g.Source, g.Why, g.Created, g.Confidence, g.Anchors
	}
	for _, t := range g.Tags {
		if !slices.Contains(k.Tags, t) {
			k.Tags = append(k.Tags, t)
		}
	}
}

// merge folds the memories of a group into the one kept, through the
// vault's Merge: the kept one gets the description and body of the member
// named by text and the provenance (source, why, created, confidence,
// anchors) of the one named by prov, and the tags of all; links to the
// others point at it; the others are deleted or marked superseded.
func (s *Server) merge(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	where, keep, names := f.Get("where"), f.Get("keep"), f["name"]
	v := s.vaultNamed(where)
	if v == nil {
		http.Error(w, "mnemo ui: no such vault", http.StatusNotFound)
		return
	}
	text, prov := cmp.Or(f.Get("text"), keep), cmp.Or(f.Get("prov"), keep)
	if len(names) < 2 || !slices.Contains(names, keep) || !slices.Contains(names, text) || !slices.Contains(names, prov) {
		back(w, r, "/memories", "err", "choose the memory to keep, its text and its provenance among the group")
		return
	}
	seen := f["seen"]
	if len(seen) != len(names) {
		back(w, r, "/memories", "err", errMergeChanged.Error())
		return
	}
	shownAs := make(map[string]string, len(names))
	for i, n := range names {
		shownAs[n] = seen[i]
	}
	supersede := f.Get("fate") == "supersede"
	now := s.cfg.Now().UTC()
	var merged []string
	for _, gone := range names {
		if gone == keep {
			continue
		}
		out := vault.Removal{Vault: where, Reason: "merged into " + keep + " on the review page", Source: "mnemo ui", At: now}
		err := v.Merge(r.Context(), keep, gone, supersede, out, func(k, g *memory.Memory) error {
			// What the person chose from is what the page showed: a member
			// changed since (a pull, an edit, a worker) could lose what it
			// says now. The kept one is checked before its first merge.
			if len(merged) == 0 && shown(k) != shownAs[keep] || shown(g) != shownAs[gone] {
				return errMergeChanged
			}
			fold(k, g, text, prov)
			k.Updated, g.Updated = now, now
			return nil
		})
		if err != nil {
			msg := err.Error()
			if len(merged) > 0 {
				msg = fmt.Sprintf("merged %s, then: %v", strings.Join(merged, ", "), err)
			}
			back(w, r, "/memories", "err", msg)
			return
		}
		merged = append(merged, gone)
	}
	back(w, r, memLink(where, keep), "msg", "merged "+strings.Join(merged, ", ")+" into "+keep)
}

// shown identifies the text of a memory's file as a page showed it, so
// that an action taken on the page can tell whether the file changed
// since: the first 16 hex digits of the SHA-256 of the file.
func shown(m *memory.Memory) string {
	sum := sha256.Sum256(m.Render())
	return hex.EncodeToString(sum[:8])
}
