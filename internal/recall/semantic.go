package recall

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// A QueryEmbedder embeds a query's text; package embed's model is one. It
// returns nil for text it cannot read. ModelID names its model (see
// [index.Embedder]): the index's vectors of another model are not used.
type QueryEmbedder interface {
	EmbedQuery(ctx context.Context, text string) ([]float32, error)
	ModelID() string
}

// meaning adds recall by meaning (see [Config.Semantic]) when the engine
// has an embedder, the index has vectors, and the query has words the
// model can read: the memories nearest the query, in nb (see
// [Engine.near]), join the candidates, and every candidate gains its
// nearness (see [Config.SemanticWeight]).
func (e *Engine) meaning(ctx context.Context, nb nearby, f index.Filter, cands map[int64]*candidate) error {
	if nb.vec == nil {
		return nil
	}
	vec, mean, hits := nb.vec, nb.mean, nb.hits
	// Only a memory near enough joins on its meaning alone.
	hits = slices.DeleteFunc(hits, func(h index.Hit) bool {
		return cands[h.ID] == nil && h.Score < e.cfg.SemanticFloor
	})
	// The candidates of the other lists get their similarity too, so
	// that no step separates the list from what it left out.
	listed := make(map[int64]bool, len(hits))
	for _, h := range hits {
		listed[h.ID] = true
	}
	among := []int64{}
	for id := range cands {
		if !listed[id] {
			among = append(among, id)
		}
	}
	more, err := nb.vectors.Nearest(ctx, index.NearQuery{Vector: vec, Filter: f, Limit: len(among), Among: among})
	if err != nil {
		return err
	}
	hits = append(hits, more...)
	slices.SortFunc(hits, func(a, b index.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
	})
	e.fuseCosine(cands, hits, mean)
	return nil
}

// meanSimilarity is the mean cosine similarity of vec to the vault's
// memories (see [index.Vectors.Mean]); 0 before the mean is known.
func meanSimilarity(vs *index.Vectors, vec []float32) float64 {
	mean := vs.Mean()
	if len(mean) != len(vec) {
		return 0
	}
	var dot float64
	for i, x := range vec {
		dot += float64(x) * float64(mean[i])
	}
	return dot
}

// nearness is the meaning part of a memory at cosine cos to a query whose
// mean similarity to the vault is mean.
func (e *Engine) nearness(cos, mean float64) float64 {
	return e.cfg.SemanticWeight * max(cos-mean, 0)
}

// queryVector returns the vector of q's [MeaningText], or nil when recall
// by meaning is off, the index has no vectors or the model cannot read
// the query.
// It returns the index's vectors with it, read once for the whole recall.
func (e *Engine) queryVector(ctx context.Context, q Query) ([]float32, *index.Vectors, error) {
	text, vs, err := e.embeddable(ctx, q)
	if err != nil || text == "" {
		return nil, nil, err
	}
	vec, err := e.embed(ctx, text)
	return vec, vs, err
}

// embeddable returns the text of q that the model is to embed and the
// index's vectors, or "" when there is none to embed (see
// [Engine.queryVector]).
func (e *Engine) embeddable(ctx context.Context, q Query) (string, *index.Vectors, error) {
	if e.cfg.Semantic == nil || e.cfg.SemanticWeight == 0 {
		return "", nil, nil
	}
	text := MeaningText(q.Text)
	if text == "" {
		return "", nil, nil
	}
	vs, err := e.db.Vectors(ctx, e.cfg.Semantic.ModelID())
	if err != nil || !vs.Has() {
		return "", nil, err
	}
	return text, vs, nil
}

func (e *Engine) embed(ctx context.Context, text string) ([]float32, error) {
	vec, err := e.cfg.Semantic.EmbedQuery(ctx, text)
	if err != nil {
		return nil, fmt.Errorf("recall: embed the query: %w", err)
	}
	return vec, nil
}

// nearby is what recall by meaning finds before it sees the other
// lists' candidates: the query's vector (nil when there is none to
// embed), its mean similarity to the vault, and the memories nearest it,
// with the index's vectors they were found in.
type nearby struct {
	vec     []float32
	mean    float64
	hits    []index.Hit
	vectors *index.Vectors
}

// near embeds text, a query's [MeaningText], and finds the n memories
// nearest it under f among vs, and its mean similarity to them.
func (e *Engine) near(ctx context.Context, text string, vs *index.Vectors, f index.Filter, n int) (nearby, error) {
	vec, err := e.embed(ctx, text)
	if err != nil || vec == nil {
		return nearby{}, err
	}
	hits, err := vs.Nearest(ctx, index.NearQuery{Vector: vec, Filter: f, Limit: n})
	return nearby{vec, meanSimilarity(vs, vec), hits, vs}, err
}

// Rerank adds recall by meaning to results that [Engine.Recall] returned
// without it, and sorts them again: each gains its nearness to the query
// (see [Config.SemanticWeight]), times its boosts, as in Recall, from its own
// vector alone. A hook reranks what the words found this way without
// reading every vector of a large vault. Without an embedder, vectors,
// or a query the model can read, the results come back as they were.
func (e *Engine) Rerank(ctx context.Context, q Query, results []Result) ([]Result, error) {
	vec, vs, err := e.queryVector(ctx, q)
	if err != nil || vec == nil || len(results) == 0 {
		return results, err
	}
	ids := make([]int64, len(results))
	for i, r := range results {
		ids[i] = r.ID
	}
	hits, err := vs.Nearest(ctx, index.NearQuery{Vector: vec, Limit: len(ids), Among: ids})
	if err != nil {
		return nil, err
	}
	mean := meanSimilarity(vs, vec)
	sim := make(map[int64]float64, len(hits))
	for _, h := range hits {
		sim[h.ID] = h.Score
	}
	out := slices.Clone(results)
	for i := range out {
		cos, ok := sim[out[i].ID]
		if !ok {
			continue
		}
		boost := 1.0
		for _, b := range out[i].Why.Boosts {
			boost *= b.Value
		}
		v := e.nearness(cos, mean)
		out[i].Score += v * boost
		out[i].Why.Relevance = append(slices.Clip(out[i].Why.Relevance), Part{Name: "meaning", Value: v, Detail: fmt.Sprintf("cosine %.3f, vault mean %.3f", cos, mean)})
	}
	sortResults(out)
	return out, nil
}

// fuseCosine adds the [Engine.nearness] of each hit, best first.
func (e *Engine) fuseCosine(cands map[int64]*candidate, hits []index.Hit, mean float64) {
	for i, h := range hits {
		v := e.nearness(h.Score, mean)
		c := cands[h.ID]
		if c == nil {
			c = &candidate{id: h.ID}
			cands[h.ID] = c
		}
		c.rel += v
		c.why.Relevance = append(c.why.Relevance, Part{Name: "meaning", Value: v, Detail: fmt.Sprintf("rank %d, cosine %.3f, vault mean %.3f", i+1, h.Score, mean)})
	}
}

// MeaningText is a query as the sentence encoder reads it: its [Terms],
// lower-cased words without punctuation or stop words, in order; empty
// when it has nothing but stop words. A question's "when did ... the ...?"
// would make it match other questions rather than the turns that answer
// it: on LoCoMo the question mark alone cost the list alone 3 points of
// R@5, the stop words 4 more.
func MeaningText(text string) string {
	terms := Terms(text)
	if len(terms) == 0 || isStopWord(terms[0]) {
		return "" // Terms keeps stop words only when nothing else is left
	}
	return strings.Join(terms, " ")
}
