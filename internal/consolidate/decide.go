package consolidate

import "strings"

// A relation is how a candidate stands to one existing memory or draft.
// Of several memories, the one with the highest relation is the candidate's
// match.
type relation uint8

const (
	different   relation = iota // another fact: the candidate is new
	extends                     // the same fact with more detail: all the memory's values, more text
	contradicts                 // it disagrees with the memory on a claim
	same                        // the same fact said again: the same values, nearly the same words
	// updates is never found by [relate]: the extractor said the
	// candidate updates the memory, and the update changes more than an
	// extension may, so it can only be proposed (relation.go).
	updates
)

var relationNames = [...]string{different: "different", extends: "extends", contradicts: "contradicts", same: "same", updates: "updates"}

func (r relation) String() string { return relationNames[r] }

// relate decides how cand stands to old, given how similar the two are (0
// to 1). Two statements are one fact only when their values agree: numbers,
// versions, ports, hosts, paths, identifiers, names, environments, days and
// dates. So
//
//   - a candidate that disagrees with old on a claim contradicts it;
//   - one that names every value of old and keeps its words, adding detail
//     (a value, or words) but no denial, extends it;
//   - one with the same values and nearly the same words is the same fact;
//   - anything else, whatever the overlap, is a different fact.
func relate(old, cand *statement, sim float64) relation {
	if sim < topicAt {
		return different
	}
	if conflicts(old, cand) {
		return contradicts
	}
	if len(old.values.missingFrom(cand.values)) > 0 {
		return different
	}
	added := cand.values.missingFrom(old.values)
	if sim >= extendSimAt && containment(old.words, cand.words) >= extendAt &&
		(len(added) > 0 || newWords(old, cand) >= 2) && !newDenial(old, cand) {
		return extends
	}
	if len(added) == 0 && sim >= duplicateAt {
		return same
	}
	return different
}

// newWords counts the content words of cand that old lacks.
func newWords(old, cand *statement) int {
	n := 0
	for w := range cand.words {
		if !old.words[w] {
			n++
		}
	}
	return n
}

// paraphrases reports whether cand says again what rejected said: the same
// values (when it names any, a rewording is enough), or no values and
// nearly the same words. A fact with other values is another fact.
func paraphrases(rejected, cand *statement, sim float64) bool {
	if !agree(rejected.values, cand.values) || conflicts(rejected, cand) {
		return false
	}
	if len(rejected.values.list) > 0 {
		return sim >= paraphraseAt
	}
	return sim >= duplicateAt
}

// newDenial reports whether cand denies something old does not: "don't
// merge until Credo passes" does not extend "lint with Credo", it says
// another thing.
func newDenial(old, cand *statement) bool {
	if len(cand.denied) == 0 {
		return false
	}
	seen := make(map[string]bool, len(old.denied))
	for _, d := range old.denied {
		seen[strings.Join(d, " ")] = true
	}
	for _, d := range cand.denied {
		if !seen[strings.Join(d, " ")] {
			return true
		}
	}
	return false
}
