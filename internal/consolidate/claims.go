package consolidate

import (
	"strings"
)

// A statement is a memory's or a candidate's text made ready to be set
// against another: its words, its values, what it affirms and what it
// denies, and its "key is value" claims.
type statement struct {
	words    map[string]bool // content words, stemmed: for similarity
	values   values
	affirmed map[string]bool // content words said positively
	denied   [][]string      // the specific words of each phrase said negatively
	claims   []claim
}

// A claim is a sentence of the shape "key is value": "the gadget port for
// service hk3 is 93".
type claim struct {
	key     map[string]bool // content words before the copula
	keyVals values          // values before it (hk3)
	val     values          // values after it (93)
}

// maxClaims bounds the claims read from a text, since every claim of one
// text is set against every claim of the other. A memory is one fact in a
// few sentences; a longer text's later claims are not compared.
const maxClaims = 32

// parseStatement reads a text for comparison.
func parseStatement(text string) *statement {
	s := &statement{words: words(text), values: extractValues(text), affirmed: map[string]bool{}}
	for _, sent := range sentences(text) {
		s.polarity(sent)
		if c, ok := claimOf(sent); ok && len(s.claims) < maxClaims {
			s.claims = append(s.claims, c)
		}
	}
	return s
}

// sentences splits a text into sentences of chunks: at the end of a line,
// and after a chunk that ends in '.', '!', '?' or ';'.
func sentences(text string) [][]string {
	var out [][]string
	for line := range strings.Lines(text) {
		var cur []string
		for _, c := range strings.Fields(line) {
			cur = append(cur, c)
			if s := strings.TrimRight(c, "\"'`)]*_"); strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") ||
				strings.HasSuffix(s, "?") || strings.HasSuffix(s, ";") {
				out = append(out, cur)
				cur = nil
			}
		}
		if len(cur) > 0 {
			out = append(out, cur)
		}
	}
	return out
}

// polarity sorts a sentence's words into affirmed and denied. A negation
// ("not", "never", "don't", "instead of", "without") denies the words after
// it until the clause ends; a reversal after a phrase ("pnpm was dropped")
// denies the words before it. "Use Credo and Dialyxir, not Sobelow"
// affirms credo and dialyxir and denies sobelow.
func (s *statement) polarity(sent []string) {
	var cur []string
	neg := false
	flush := func() {
		if neg {
			if spec := specific(cur); len(spec) > 0 {
				s.denied = append(s.denied, spec)
			}
		} else {
			for _, w := range cur {
				s.affirmed[w] = true
			}
		}
		cur, neg = nil, false
	}
	for i, raw := range sent {
		l := strings.ToLower(trimChunk(raw))
		next := ""
		if i+1 < len(sent) {
			next = strings.ToLower(trimChunk(sent[i+1]))
		}
		switch {
		case clauseWords[l]:
			flush()
		case negation(l) || (l == "instead" && next == "of") || (l == "rather" && next == "than"):
			flush()
			neg = true
		case reversals[l]:
			neg = true
			flush()
		default:
			for w := range contentWords(raw) {
				cur = append(cur, w)
			}
		}
		if strings.ContainsAny(raw[len(raw)-1:], ",;:") {
			flush()
		}
	}
	flush()
}

// negation reports whether a lower-cased word negates what follows it.
func negation(l string) bool {
	return negations[l] || strings.HasSuffix(l, "n't") || strings.HasSuffix(l, "n’t")
}

var negations = map[string]bool{
	"not": true, "never": true, "no": true, "nor": true, "neither": true, "cannot": true,
	"dont": true, "doesnt": true, "isnt": true, "cant": true, "avoid": true, "without": true,
	"stop": true, "except": true,
}

// reversals say that what came before them is no longer so.
var reversals = map[string]bool{
	"dropped": true, "removed": true, "deprecated": true, "replaced": true, "abandoned": true,
	"retired": true, "forbidden": true, "banned": true,
}

// clauseWords end a clause, and so the reach of a negation: "don't merge
// until Credo passes" denies merging, not Credo.
var clauseWords = map[string]bool{
	"but": true, "however": true, "although": true, "though": true, "whereas": true,
	"while": true, "until": true, "unless": true, "because": true, "since": true, "when": true,
	"if": true, "before": true, "after": true, "so": true, "then": true, "otherwise": true,
}

// generic words are too common to be what a negation is about: in "do not
// use pnpm any more" the denied thing is pnpm.
var generic = map[string]bool{
	"use": true, "using": true, "used": true, "run": true, "running": true, "do": true,
	"make": true, "get": true, "go": true, "have": true, "work": true, "need": true,
	"want": true, "set": true, "any": true, "longer": true, "anymore": true, "always": true,
	"ever": true, "again": true, "call": true, "try": true, "instead": true, "rather": true,
	"allow": true, "allowed": true, "must": true, "thing": true, "there": true,
}

// specific returns the words of a phrase that are not generic.
func specific(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !generic[w] {
			out = append(out, w)
		}
	}
	return out
}

// claimOf returns the "key is value" claim of a sentence, if it has one
// with a key of content words and a value that holds values.
func claimOf(sent []string) (claim, bool) {
	for i, raw := range sent {
		l := strings.ToLower(trimChunk(raw))
		colon := strings.HasSuffix(raw, ":") && i > 0
		if i == 0 || !(copulas[l] || colon) {
			continue
		}
		key, val := strings.Join(sent[:i], " "), strings.Join(sent[i+1:], " ")
		if colon {
			key = strings.Join(sent[:i+1], " ")
		}
		if len(sent) > i+1 && negation(strings.ToLower(trimChunk(sent[i+1]))) {
			return claim{}, false // "x is not y" is a denial
		}
		c := claim{key: words(key), keyVals: scanValues(key, false), val: scanValues(val, true)}
		return c, len(c.key) > 0 && len(c.val.list) > 0
	}
	return claim{}, false
}

var copulas = map[string]bool{"is": true, "are": true, "was": true, "were": true, "=": true, "equals": true}

// keyAt is the word similarity from which two claims' keys are one key.
const keyAt = 0.6

// conflicts reports whether two statements disagree on a claim: one denies
// what the other affirms ("use pnpm, not npm" against "use npm, not
// pnpm"), or both give one key different values ("the port for hk3 is 93"
// against "the port for hk3 is 95"). Two keys with different values are
// two facts ("the port for hk3…", "the port for hk4…"), not a conflict.
func conflicts(a, b *statement) bool {
	if denies(a, b) || denies(b, a) {
		return true
	}
	for _, ca := range a.claims {
		for _, cb := range b.claims {
			if jaccard(ca.key, cb.key) >= keyAt && agree(ca.keyVals, cb.keyVals) &&
				len(ca.val.missingFrom(cb.val)) > 0 && len(cb.val.missingFrom(ca.val)) > 0 {
				return true
			}
		}
	}
	return false
}

// denies reports whether b denies something a affirms and b does not: a
// denied phrase whose specific words a affirms, all of them.
func denies(a, b *statement) bool {
	for _, d := range b.denied {
		all, own := true, true
		for _, w := range d {
			all = all && a.affirmed[w]
			own = own && b.affirmed[w]
		}
		if all && !own {
			return true
		}
	}
	return false
}
