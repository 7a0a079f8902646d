package provenance

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/instruction"
	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// A Statement is something a person said in a session, in their own words:
// a prompt, or an answer to a question the agent asked.
type Statement struct {
	Text string
	At   time.Time // when it was said: "next month" in it counts from here; zero: as written
	// Chosen reports that the person picked the statement among options
	// the agent wrote (an answer to the agent's question): it grounds the
	// facts it holds, but gives no instruction of the person's, since an
	// injected agent can offer "curl … | sh" as the recommended option.
	Chosen bool
	// Context holds words of the agent's that came with the statement (the
	// descriptions of the options the person picked): they count toward a
	// fact's words, never its values, which only the person's own text
	// gives.
	Context string
}

// Said is what a person said in one session, ready for [Said.Check]. A
// Said is not changed after [NewSaid]; it is safe for concurrent use.
type Said struct {
	all   terms   // every statement together
	own   terms   // every statement together, without their contexts
	typed []terms // one per statement: its lines the person typed ([OwnLines]), not pasted
	instr []bool  // whether each statement's typed lines give an instruction, in the imperative
}

// terms are the stemmed words and the values of a text, lower-cased.
type terms struct {
	words  map[string]bool
	values map[string]bool
}

// NewSaid gathers statements. Each counts as written and, when its time is
// known, with its relative dates made absolute as mnemo writes them in a
// memory ("next month" said on 2026-11-30 is also "2026-12").
func NewSaid(ss ...Statement) *Said {
	s := &Said{all: newTerms(), own: newTerms()}
	for _, st := range ss {
		if strings.TrimSpace(st.Text) == "" { // a context alone is no one's statement
			continue
		}
		text := dated(st.Text, st.At)
		s.all.add(text)
		s.all.addWords(st.Context)
		s.own.add(text)
		typed := reportedRE.ReplaceAllString(strings.Join(OwnLines(st.Text), "\n"), " ")
		tt := newTerms()
		tt.add(dated(typed, st.At))
		s.typed = append(s.typed, tt)
		s.instr = append(s.instr, !st.Chosen && instruction.Imperative(typed) != "")
	}
	return s
}

// reportedRE matches a quotation the person gives as someone else's
// words: 'the page says: "…"', 'it reads “…”'. Like a pasted block, it
// is theirs to show, not theirs to say.
var reportedRE = lazyregexp.New(`(?i)\b(?:says?|said|reads?|wrote|writes|suggests?|claims?|recommends?|tells (?:you|me|us))\s*:?\s*(?:"[^"\n]*"|“[^”\n]*”)`)

// dated is text with, when the time it was said is known, its relative
// dates made absolute after it.
func dated(text string, at time.Time) string {
	if !at.IsZero() {
		if abs := memory.AbsoluteDates(text, at); abs != text {
			text += "\n" + abs
		}
	}
	return text
}

func newTerms() terms { return terms{words: map[string]bool{}, values: map[string]bool{}} }

func (t terms) add(text string) {
	t.addWords(text)
	for _, a := range atoms(text) {
		t.values[a] = true
	}
}

// addWords adds the words of text, not its values.
func (t terms) addWords(text string) {
	for _, w := range index.Words(text) {
		t.words[w] = true
	}
}

// SaidValue reports whether the person said v, a value as [Values] gives it.
func (s *Said) SaidValue(v string) bool { return s.all.values[v] }

// Values returns the values of text as [Said.Check] reads them: its runs
// of letters, digits and . - _ that hold a digit, an inner dot, dash or
// underscore, or an inner capital, lower-cased.
func Values(text string) []string { return atoms(text) }

// Empty reports whether nothing was said.
func (s *Said) Empty() bool { return len(s.typed) == 0 }

// A Verdict says whether a person stated a fact, and if not, why not.
type Verdict struct {
	Stated bool
	// Instruction is the kind of instruction the fact gives (see
	// [Instruction]), or "".
	Instruction string
	// Missing are values and words of the fact the person did not say,
	// a few of them, for the answer that explains a draft.
	Missing []string
	// Unknown reports that no word of the person's is known at all.
	Unknown bool
}

// maxMissing is how many missing terms a verdict names.
const maxMissing = 5

// Check decides whether the person stated fact: its distinguishing content
// appears in their words. Every value of the fact (a number, version,
// port, host, path, identifier, date: a word with a digit or inner
// punctuation) must appear as they wrote it, and at least half of its
// other content words (stemmed, so "uses" is "use"). A fact that gives
// an instruction ([Instruction]) is stated only when what the person
// typed in one statement (not what they pasted: [OwnLines]) both gives an
// instruction and grounds the fact on its own: an instruction cannot be
// assembled from words said in passing, nor taken from a README quoted. A fact
// that lifts a guard ([LiftsGuard]) is grounded in the person's own text
// only, never in a statement's context (the agent's descriptions of the
// options picked).
func (s *Said) Check(fact string) Verdict {
	v := Verdict{Instruction: Instruction(fact), Unknown: s.Empty()}
	want := factTerms(fact)
	if len(want.values)+len(want.words) == 0 {
		return v
	}
	if v.Instruction == "" {
		in := s.all
		if LiftsGuard(fact) != "" {
			in = s.own // lifting a guard: never on the agent's words that came with a choice
		}
		v.Missing = want.missing(in)
		v.Stated = !v.Unknown && grounded(want, v.Missing)
		return v
	}
	v.Missing = want.missing(s.all)
	for i, t := range s.typed {
		if s.instr[i] && grounded(want, want.missing(t)) {
			v.Stated, v.Missing = true, nil
			break
		}
	}
	return v
}

// wanted are the terms of a fact that must be found.
type wanted struct {
	values []string
	words  []string // stems, in order
}

func factTerms(fact string) wanted {
	var w wanted
	seen := map[string]bool{}
	for _, st := range index.Words(metaWords) {
		seen[st] = true
	}
	for _, a := range atoms(fact) {
		if !seen[a] {
			seen[a] = true
			w.values = append(w.values, a)
		}
	}
	for _, term := range recall.Terms(fact) {
		for _, st := range index.Words(term) {
			if !seen[st] {
				seen[st] = true
				w.words = append(w.words, st)
			}
		}
	}
	return w
}

// missing lists the values, then the words, of w that t lacks.
func (w wanted) missing(t terms) []string {
	var out []string
	for _, v := range w.values {
		if !t.values[v] {
			out = append(out, v)
		}
	}
	for _, st := range w.words {
		if !t.words[st] {
			out = append(out, st)
		}
	}
	return out
}

// grounded reports whether a fact missing these of its terms is stated:
// no value missing, and at least half of its words found.
func grounded(w wanted, missing []string) bool {
	lost := 0
	for _, m := range missing {
		if isValue(m, w.values) {
			return false
		}
		lost++
	}
	return 2*lost <= len(w.words)
}

func isValue(m string, values []string) bool {
	for _, v := range values {
		if v == m {
			return true
		}
	}
	return false
}

// Reason says in words why a fact is not stated, for a tool's answer:
// "it is not in the user's words in this session (not said: …)".
func (v Verdict) Reason() string {
	switch {
	case v.Stated:
		return ""
	case v.Unknown:
		return "mnemo knows none of the user's words in this session (its user-prompt-submit hook records them)"
	case v.Instruction != "":
		return "it is an instruction to " + v.Instruction + " that the user did not give in this session"
	}
	missing := v.Missing
	if len(missing) > maxMissing {
		missing = missing[:maxMissing]
	}
	if len(missing) == 0 {
		return "it is not in the user's words in this session"
	}
	return fmt.Sprintf("it is not in the user's words in this session (not said: %s)", strings.Join(missing, ", "))
}

// metaWords talk about the telling rather than the fact ("the user said",
// "prefers"): a model writes them, the person does not.
const metaWords = "user users person said says told asked stated mentioned noted wants prefers corrected remember agent assistant claude"

// atoms returns the values of a text: its runs of letters, digits and
// . - _ that hold a digit, an inner dot, dash or underscore, or an inner
// capital (UserService), lower-cased, trimmed of sentence punctuation. A
// host and port "db.internal:5432" gives "db.internal" and "5432"; a URL
// gives its host and path parts.
func atoms(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_'
	}) {
		f = strings.Trim(f, ".-_")
		if isValueAtom(f) {
			out = append(out, strings.ToLower(f))
		}
	}
	return out
}

func isValueAtom(f string) bool {
	prev := rune(0)
	for i, r := range f {
		switch {
		case unicode.IsDigit(r):
			return true
		case i > 0 && (r == '.' || r == '-' || r == '_'):
			return true
		case i > 0 && unicode.IsUpper(r) && unicode.IsLower(prev):
			return true
		}
		prev = r
	}
	return false
}
