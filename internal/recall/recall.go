package recall

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// DefaultLimit is how many memories a query returns when it does not say.
const DefaultLimit = 10

// A Query asks for the memories relevant to some text and files.
type Query struct {
	Text   string
	Files  []string      // slash-separated paths relative to the repository root
	Types  []memory.Type // only these types; none means all
	Limit  int           // at most this many results; 0 means DefaultLimit
	Budget int           // tokens, for [Pack] by the caller; 0 means no limit
	Now    time.Time     // for recency; the zero time turns the recency boost off
}

// A Result is one recalled memory.
type Result struct {
	index.Doc
	Score float64
	Why   Why
}

// Why says how a result got its score: relevance (the sum of the fused
// lists and links) times the product of the boosts.
type Why struct {
	Terms     []string `json:"terms"`             // query words the memory contains
	Relevance []Part   `json:"relevance"`         // one per list the memory was found in, and per link
	Boosts    []Part   `json:"boosts"`            // each factor other than 1
	Suspect   string   `json:"suspect,omitempty"` // why the memory is suspect; empty when it is not
	Dropped   []string `json:"dropped,omitempty"` // query words too common to search for
}

// A Part is one term of a score.
type Part struct {
	Name   string  `json:"name"`   // "words", "substrings", "files", "link", "type", "recency", ...
	Value  float64 `json:"value"`  // a relevance term, or a factor
	Detail string  `json:"detail"` // "rank 3", "from auth-moved", "updated 2026-11-02"
}

// An Engine answers queries from an index.
type Engine struct {
	db     *index.DB
	cfg    Config
	serial bool // embed the query after searching the words, not meanwhile: for tests
}

// New returns an engine over db with the given ranking.
func New(db *index.DB, cfg Config) *Engine { return &Engine{db: db, cfg: cfg} }

// candidate is a memory being ranked.
type candidate struct {
	id  int64
	rel float64
	why Why
	doc *index.Doc
}

// Recall returns the memories that best match q, best first. It only reads
// the index; callers that show or inject the results record that with
// [index.DB.RecordRecall].
func (e *Engine) Recall(ctx context.Context, q Query) ([]Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	terms := Terms(q.Text)
	f := index.Filter{Types: q.Types}
	cands := make(map[int64]*candidate)
	dropped, nb, err := e.search(ctx, q, terms, f, limit, cands)
	if err != nil {
		return nil, err
	}
	if err := e.meaning(ctx, nb, f, cands); err != nil {
		return nil, err
	}
	if err := e.load(ctx, cands); err != nil {
		return nil, err // an index error, which names its package
	}
	results := make([]Result, 0, len(cands))
	var dates []period
	if e.cfg.DateBoost != 0 {
		dates = periods(q.Text)
	}
	for _, c := range cands {
		if c.doc == nil || !typeAllowed(c.doc.Type, q.Types) {
			continue
		}
		score := c.rel * e.boost(c, q.Now, dates)
		results = append(results, Result{Doc: *c.doc, Score: score, Why: c.why})
	}
	sortResults(results)
	if len(results) > limit {
		results = results[:limit]
	}
	if err := e.fill(ctx, results, terms, dropped); err != nil {
		return nil, err // an index error, which names its package
	}
	return results, nil
}

// sortResults orders results best first, ties by name and vault.
func sortResults(results []Result) {
	slices.SortFunc(results, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.Source, b.Source)
	})
}

// search finds the candidates: those the words, substrings, files and
// links find, into cands, and those nearest the query's meaning (see
// [Engine.near]). It returns the query words dropped as too common.
//
// With a query to embed, the meaning's search runs on the caller's
// goroutine and the words' is offered to another, so that a recall on
// two cores takes the longer of the two, not their sum. The meaning's is
// the longer (the model, then a scan of every vector: 1.8 against 1.0 ms
// in the MCP server at 10,000 memories), and a new goroutine can wait
// long for a core: on this project's 2-core machine 0.1 ms at best, and
// 3 ms at the median once the other core has been idle for 4 ms. So the
// words go to whoever starts them first: when no other core has by the
// time the meaning is found, the caller searches them itself, and a
// recall is never slower than the two in turn. Which one ran them
// changes nothing in what search returns.
func (e *Engine) search(ctx context.Context, q Query, terms []string, f index.Filter, limit int, cands map[int64]*candidate) ([]string, nearby, error) {
	n := max(e.cfg.Candidates, 2*limit)
	text, vs, err := e.embeddable(ctx, q)
	if err != nil {
		return nil, nearby{}, err
	}
	words := func() ([]string, error) {
		dropped, err := e.gather(ctx, q, terms, f, n, cands)
		if err != nil {
			return nil, err // an index error, which names its package
		}
		return dropped, e.expandLinks(ctx, cands, f) // an index error, which names its package
	}
	if text == "" || e.serial {
		dropped, err := words()
		if err != nil || text == "" {
			return dropped, nearby{}, err
		}
		nb, err := e.near(ctx, text, vs, f, n)
		return dropped, nb, err
	}
	var dropped []string
	var werr error
	var taken atomic.Bool // by the goroutine that searches the words
	done := make(chan struct{})
	go func() {
		// Started too late, it does nothing: the caller has them.
		if taken.CompareAndSwap(false, true) {
			dropped, werr = words()
			close(done)
		}
	}()
	nb, err := e.near(ctx, text, vs, f, n)
	if taken.CompareAndSwap(false, true) { // no core has picked it up yet
		dropped, werr = words()
	} else {
		<-done
	}
	if werr != nil {
		return nil, nearby{}, werr
	}
	return dropped, nb, err
}

// fill loads the whole documents of the results, which were ranked on
// their heads (unless the heads came whole), and says which terms each
// matched.
func (e *Engine) fill(ctx context.Context, results []Result, terms, dropped []string) error {
	var ids []int64
	for _, r := range results {
		if !r.Whole() {
			ids = append(ids, r.ID)
		}
	}
	docs, err := e.db.Docs(ctx, ids)
	if err != nil {
		return err
	}
	byID := make(map[int64]index.Doc, len(docs))
	for _, d := range docs {
		byID[d.ID] = d
	}
	for i := range results {
		stems := results[i].Stems
		if d, ok := byID[results[i].ID]; ok {
			results[i].Doc = d
			results[i].Stems = stems
		}
		results[i].Why.Terms = matchedTerms(terms, stems)
		results[i].Why.Dropped = dropped
	}
	return nil
}

// gather runs each search for n memories and fuses its ranked list into
// cands. It returns the query words dropped as too common.
func (e *Engine) gather(ctx context.Context, q Query, terms []string, f index.Filter, n int, cands map[int64]*candidate) ([]string, error) {
	words, err := e.db.Search(ctx, index.WordQuery{Terms: terms, Weights: e.cfg.Weights, Filter: f,
		Limit: n, CommonDocs: e.cfg.CommonDocs, CommonShare: e.cfg.CommonShare})
	if err != nil {
		return nil, err
	}
	e.fuse(cands, "words", e.cfg.WordsWeight, words.Hits)
	if subs := Substrings(q.Text); len(subs) > 0 {
		hits, err := e.db.SearchSubstrings(ctx, subs, f, n)
		if err != nil {
			return nil, err
		}
		e.fuse(cands, "substrings", e.cfg.SubstringsWeight, hits)
	}
	if len(q.Files) > 0 {
		hits, err := e.db.Anchored(ctx, q.Files, f)
		if err != nil {
			return nil, err
		}
		e.fuse(cands, "files", e.cfg.FilesWeight, e.fileList(hits))
	}
	return droppedWords(terms, words.Dropped), nil
}

// droppedWords returns the query words whose stems were dropped.
func droppedWords(terms, stems []string) []string {
	var out []string
	for _, t := range terms {
		if ws := index.Words(t); len(ws) > 0 && slices.Contains(stems, ws[0]) {
			out = append(out, t)
		}
	}
	return out
}

// fuse adds a ranked list (best first) to the candidates: by score over
// the list's best score, or by reciprocal rank (see [Config.FuseScores]).
func (e *Engine) fuse(cands map[int64]*candidate, name string, weight float64, hits []index.Hit) {
	if weight == 0 || len(hits) == 0 {
		return
	}
	byScore := e.cfg.FuseScores && hits[0].Score > 0
	for i, h := range hits {
		v := weight / (e.cfg.FuseK + float64(i+1))
		if byScore {
			v = weight * h.Score / hits[0].Score
		}
		c := cands[h.ID]
		if c == nil {
			c = &candidate{id: h.ID}
			cands[h.ID] = c
		}
		if c.doc == nil && h.Head.ID == h.ID {
			head := h.Head
			c.doc = &head
		}
		c.rel += v
		c.why.Relevance = append(c.why.Relevance, Part{Name: name, Value: v, Detail: fmt.Sprintf("rank %d, score %.3g", i+1, h.Score)})
	}
}

// fileList ranks anchored memories: the file itself before its folder,
// more shared files first, then by row for a stable order.
func (e *Engine) fileList(hits []index.FileHit) []index.Hit {
	score := make(map[int64]float64)
	for _, h := range hits {
		if h.Exact {
			score[h.ID]++
		} else {
			score[h.ID] += e.cfg.DirWeight
		}
	}
	out := make([]index.Hit, 0, len(score))
	for id, s := range score {
		out = append(out, index.Hit{ID: id, Score: s})
	}
	slices.SortFunc(out, func(a, b index.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// load fetches the documents of the candidates, without their bodies.
func (e *Engine) load(ctx context.Context, cands map[int64]*candidate) error {
	var ids []int64
	for id, c := range cands {
		if c.doc == nil {
			ids = append(ids, id)
		}
	}
	docs, err := e.db.Heads(ctx, ids)
	if err != nil {
		return err
	}
	for i := range docs {
		cands[docs[i].ID].doc = &docs[i]
	}
	return nil
}

func typeAllowed(t memory.Type, types []memory.Type) bool {
	return len(types) == 0 || slices.Contains(types, t)
}
