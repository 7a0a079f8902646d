package consolidate

import (
	"context"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Kinds of [Relation] an extractor may state of a fact and a memory.
const (
	RelationNew         = "new"         // another fact
	RelationSame        = "same"        // the memory says it already
	RelationUpdate      = "update"      // it updates the memory: more detail, or what changed since
	RelationContradicts = "contradicts" // it disagrees with the memory
)

// A Relation is what an extractor said of a fact and one memory or draft
// it was shown. It is a hint: consolidation checks it against its own
// rules, and values decide. A model that says "same" of two statements
// whose values differ does not merge them.
type Relation struct {
	Kind   string // RelationSame, RelationUpdate or RelationContradicts; "" or RelationNew say nothing
	Memory string // the memory's or the draft's name
	Where  string // project, user or inbox
}

// statedTopicAt is the least similarity at which a relation an extractor
// states is considered at all: a paraphrase shares a few words (or the
// meaning, when [Consolidator.Semantic] is set); a memory that shares none
// was named by mistake.
const statedTopicAt = 0.1

// named returns the match the relation r names, decided by the rules of
// [relate] where they are sure and by r where they are not, and false
// when r names nothing usable:
//
//   - "same": the same fact when the values agree, nothing conflicts and
//     the two are as close as a rewording of a rejected fact must be
//     ([paraphraseAt]); otherwise what relate finds. Another fact on the
//     same subject ("never migrate db-staging.internal:5432 by day"
//     against "staging is db-staging.internal:5432") shares the values
//     and a few words: merged on a model's word, it would be lost;
//   - "update": an extension when relate finds one (or the same fact);
//     otherwise, for a vault memory, a change that can only be proposed
//     ([updates]); a draft is not changed on a model's word;
//   - "contradicts": the same fact when relate finds it (values and words
//     agree), else a contradiction.
func (c *Consolidator) named(ctx context.Context, r Relation, m *memory.Memory, cand *statement) (match, bool) {
	if r.Kind == "" || r.Kind == RelationNew || !memory.ValidName(r.Memory) {
		return match{}, false
	}
	old, err := c.load(r.Where, r.Memory)
	if err != nil {
		return match{}, false
	}
	st := parseStatement(text(old))
	sim := c.similarity(ctx, text(old), text(m), st, cand)
	if sim < statedTopicAt {
		return match{}, false
	}
	mt := match{name: r.Memory, where: r.Where, mem: old, sim: sim, rel: relate(st, cand, sim)}
	agreeing := agree(st.values, cand.values) && !conflicts(st, cand)
	switch r.Kind {
	case RelationSame:
		if agreeing && sim >= paraphraseAt {
			mt.rel = same
		}
	case RelationUpdate:
		switch {
		case mt.rel == same, mt.rel == extends:
		case r.Where == "inbox":
			return match{}, false
		default:
			mt.rel = updates
		}
	case RelationContradicts:
		if mt.rel != same {
			mt.rel = contradicts
		}
	default:
		return match{}, false
	}
	return mt, true
}

// prefer returns the match a fact is decided by: the one its extractor
// named, unless consolidation's own search found the same fact or a
// contradiction elsewhere (values decided those), which stands.
func prefer(own, named match) match {
	if own.mem != nil && (own.rel == same || own.rel == contradicts) &&
		(own.name != named.name || own.where != named.where) {
		return own
	}
	return named
}

// load reads the memory or draft name from where (project, user, inbox).
// A memory of a mounted vault is not loaded: it is read-only, and a
// relation to it must not reach a memory of the same name elsewhere.
func (c *Consolidator) load(where, name string) (*memory.Memory, error) {
	if where == "inbox" {
		return c.Inbox.Load(name)
	}
	v, ok := c.vaultFor(where)
	if !ok {
		return nil, fmt.Errorf("load %s from %q: not a vault consolidation changes", name, where)
	}
	return v.Load(name)
}
