package recall

import (
	"cmp"
	"context"
	"slices"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// expandLinks gives each memory linked to or from one of the LinkFrom most
// relevant candidates LinkDiscount of that candidate's relevance: one hop,
// computed from the relevance before any link, so nothing feeds back.
func (e *Engine) expandLinks(ctx context.Context, cands map[int64]*candidate, f index.Filter) error {
	if e.cfg.LinkDiscount == 0 || e.cfg.LinkFrom <= 0 || len(cands) == 0 {
		return nil
	}
	top := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		top = append(top, c)
	}
	slices.SortFunc(top, func(a, b *candidate) int {
		if c := cmp.Compare(b.rel, a.rel); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	top = top[:min(len(top), e.cfg.LinkFrom)]
	rel := make(map[int64]float64, len(top))
	ids := make([]int64, len(top))
	for i, c := range top {
		rel[c.id], ids[i] = c.rel, c.id
	}
	links, err := e.db.Links(ctx, ids)
	if err != nil {
		return err
	}
	if err := e.nameLinks(ctx, cands, links); err != nil {
		return err
	}
	give := func(from, to int64) {
		r, ok := rel[from]
		if !ok {
			return
		}
		c := cands[to]
		if c == nil {
			c = &candidate{id: to}
			cands[to] = c
		}
		v := e.cfg.LinkDiscount * r
		c.rel += v
		c.why.Relevance = append(c.why.Relevance, Part{Name: "link", Value: v, Detail: "from " + cands[from].doc.Name})
	}
	for _, l := range links {
		give(l.From, l.To)
		give(l.To, l.From)
	}
	return nil
}

// nameLinks loads the documents of the linking candidates, so each link
// part can name where it came from.
func (e *Engine) nameLinks(ctx context.Context, cands map[int64]*candidate, links []index.Link) error {
	var ids []int64
	for _, l := range links {
		for _, id := range []int64{l.From, l.To} {
			if c := cands[id]; c != nil && c.doc == nil {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	docs, err := e.db.Heads(ctx, slices.Compact(ids))
	if err != nil {
		return err
	}
	for i := range docs {
		cands[docs[i].ID].doc = &docs[i]
	}
	return nil
}
