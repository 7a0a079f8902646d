package consolidate

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// A match is the existing memory or draft a fact relates to most.
type match struct {
	name, where string // where: project, user or inbox
	mem         *memory.Memory
	sim         float64
	rel         relation
}

// closestResults is how many memories recall offers as a fact's matches.
const closestResults = 5

// closest finds the memory (and, with drafts, the draft) that cand relates
// to most: the highest relation (same, then contradicts, then extends),
// then the most similar. A memory of another fact is a match only in name:
// its relation is [different].
func (c *Consolidator) closest(ctx context.Context, m *memory.Memory, cand *statement, drafts bool) (match, error) {
	var best match
	consider := func(name, where string, mem *memory.Memory, bonus float64) {
		st := parseStatement(text(mem))
		sim := c.similarity(ctx, text(mem), text(m), st, cand) + bonus
		rel := relate(st, cand, sim)
		if best.mem == nil || rel > best.rel || rel == best.rel && sim > best.sim {
			best = match{name: name, where: where, mem: mem, sim: sim, rel: rel}
		}
	}
	var files []string
	for _, f := range m.Anchors.Files {
		files = append(files, f.Path)
	}
	results, err := recall.New(c.Index, recall.DefaultConfig()).Recall(ctx, recall.Query{
		Text: m.Description + " " + m.Body, Files: files, Limit: closestResults,
	})
	if err != nil {
		return best, err
	}
	ls := make(vault.Loaders) // a pass a vault: git asked once, not once a result
	defer ls.Close()
	for _, r := range results {
		bonus := 0.0
		if shared(files, r.Files) {
			bonus = 0.1
		}
		v, ok := c.vaultFor(r.Source) // a mounted vault's memory is not one to merge into
		if !ok {
			continue
		}
		if mem, err := ls.Load(v, r.Name); err == nil {
			consider(r.Name, r.Source, mem, bonus)
		}
	}
	if !drafts {
		return best, nil
	}
	ds, err := c.Inbox.List()
	if err != nil {
		return best, err
	}
	for _, d := range ds {
		consider(d.Name, "inbox", d.Memory, 0)
	}
	return best, nil
}

// Near reports the memory of the vaults that m says again, extends or
// contradicts, for a caller that writes m itself (mnemo add): Action is
// [Duplicate], [Extended] or [Contradiction], with Existing and Where
// naming the memory; it is empty when m is a new fact. Drafts and
// rejections are not consulted: what a person states stands on its own.
func (c *Consolidator) Near(ctx context.Context, m *memory.Memory) (Outcome, error) {
	if err := c.sync(ctx); err != nil {
		return Outcome{}, err
	}
	best, err := c.closest(ctx, m, parseStatement(text(m)), false)
	if err != nil {
		return Outcome{}, err
	}
	o := Outcome{Name: m.Name, Existing: best.name, Where: best.where, Similarity: best.sim}
	switch best.rel {
	case same:
		o.Action = Duplicate
	case extends:
		o.Action = Extended
	case contradicts:
		o.Action = Contradiction
	default:
		return Outcome{}, nil
	}
	return o, nil
}

// similarity is how alike two statements are: the overlap of their words,
// or their closeness in meaning (see [meaningSimilarity]) when it says
// more and the two name the same values. A sentence encoder sets
// opposites side by side ("prefer small PRs" and "prefer large PRs" at
// cosine 0.95, "indent with tabs" and "with spaces" at 0.68): its
// similarity tells rewordings apart from other facts only where shared
// values (a port, a host, a path, a version) say the subject is one.
func (c *Consolidator) similarity(ctx context.Context, a, b string, sa, sb *statement) float64 {
	sim := jaccard(sa.words, sb.words)
	if c.Semantic == nil || len(sa.values.list) == 0 || !agree(sa.values, sb.values) {
		return sim
	}
	if cos, err := c.Semantic(ctx, a, b); err == nil {
		sim = max(sim, meaningSimilarity(cos))
	}
	return sim
}

// The cosines of package embed's model that [meaningSimilarity] maps to 0
// and 1: unrelated statements sit at 0.2-0.3, rewordings at 0.57-0.81
// ("The deploy port is 8080" and "Deploys listen on port 8080" 0.63).
const (
	cosineUnrelated = 0.3
	cosineSame      = 0.7
)

// meaningSimilarity maps a cosine of two statements' vectors onto the
// scale of the word overlap and its thresholds: a rewording (cosine 0.6
// and up) counts as the same fact said again (duplicateAt), one at 0.46
// as close enough to extend or to repeat a rejected draft (paraphraseAt).
func meaningSimilarity(cos float64) float64 {
	return min(max((cos-cosineUnrelated)/(cosineSame-cosineUnrelated), 0), 1)
}

// sync brings the index up to date with both vaults.
func (c *Consolidator) sync(ctx context.Context) error {
	_, err := c.Index.Sync(ctx, index.Source{Name: "project", Dir: c.Project.Dir}, index.Source{Name: "user", Dir: c.User.Dir})
	return err
}

func shared(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// vaultFor returns the vault where names: "project" or "user". Any other
// place (a mounted vault's name, read-only; the inbox) is no vault of
// consolidation's, and false: a memory there is never loaded in its
// name from, nor written to, the project or user vault.
func (c *Consolidator) vaultFor(where string) (*vault.Vault, bool) {
	switch where {
	case "project":
		return c.Project, true
	case "user":
		return c.User, true
	}
	return nil, false
}
