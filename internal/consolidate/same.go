package consolidate

// A Text is a memory's text (description and body, as [text] joins them)
// made ready to compare with others by [Text.SameFact]: its words at once,
// the rest of its statement only when another text comes close enough.
type Text struct {
	raw   string
	words map[string]bool
	st    *statement // parsed on first need
}

// NewText prepares s for comparison.
func NewText(s string) *Text { return &Text{raw: s, words: words(s)} }

func (t *Text) statement() *statement {
	if t.st == nil {
		t.st = parseStatement(t.raw)
	}
	return t.st
}

// SameFact reports whether two texts say the same fact: nearly the same
// words and the same values, the test consolidation applies to a
// duplicate, on words alone. What a hook gives a session counts such
// memories as one. A text that extends another is not the same: it says more.
func (t *Text) SameFact(o *Text) bool {
	sim := jaccard(t.words, o.words)
	if sim < duplicateAt {
		return false // too far apart to be one fact, whatever the values
	}
	return relate(t.statement(), o.statement(), sim) == same
}

// SameFact reports whether texts a and b say the same fact (see [Text.SameFact]).
func SameFact(a, b string) bool { return NewText(a).SameFact(NewText(b)) }

// SameValues reports whether two texts name the same values (numbers,
// hosts, ports, paths, environments, days…: neither names one the other
// does not mention) and claim nothing that conflicts, however their words
// differ: a rewording, or the same fact with more words. A change from
// one to the other changes no value.
func (t *Text) SameValues(o *Text) bool {
	a, b := t.statement(), o.statement()
	return agree(a.values, b.values) && !conflicts(a, b)
}
