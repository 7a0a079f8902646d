package recall

import (
	"cmp"
	"context"
	"slices"
)

// prune keeps the query words worth their cost. Scoring a word costs one
// step per memory that holds it, and the commonest words, held by a large
// part of the vault, barely move BM25 (their inverse document frequency is
// near zero), so past MaxPostings memories in all the commonest words go.
// The rarest word always stays. It returns the words kept, in query
// order, and those dropped.
func (e *Engine) prune(ctx context.Context, terms []string) (kept, dropped []string, err error) {
	if e.cfg.MaxPostings <= 0 || len(terms) < 2 {
		return terms, nil, nil
	}
	stems := make([]string, len(terms))
	for i, t := range terms {
		stems[i] = stem(t)
	}
	df, err := e.db.DocFreq(ctx, stems)
	if err != nil {
		return nil, nil, err
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(df[stems[a]], df[stems[b]]) })
	keep := make([]bool, len(terms))
	sum := 0
	for n, i := range order {
		sum += df[stems[i]]
		keep[i] = n == 0 || sum <= e.cfg.MaxPostings
	}
	for i, t := range terms {
		if keep[i] {
			kept = append(kept, t)
		} else {
			dropped = append(dropped, t)
		}
	}
	return kept, dropped, nil
}
