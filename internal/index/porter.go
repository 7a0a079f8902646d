package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Words cuts text into the terms the word index stores: runs of letters,
// digits and combining marks (as FTS5's unicode61 tokenizer cuts them),
// lower-cased, common diacritics removed, and Porter-stemmed.
func Words(text string) []string { return words(text, nil) }

// words is [Words] with a cache of stems by word as written, which a
// caller cutting many texts keeps: most words recur.
func words(text string, cache map[string]string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := text[start:end]
		start = -1
		if s, ok := cache[w]; ok {
			out = append(out, s)
			return
		}
		s := stem(fold(w))
		if cache != nil {
			cache[w] = s
		}
		out = append(out, s)
	}
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(text))
	return out
}

// isWordRune reports whether unicode61 keeps r inside a word.
func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

// fold lower-cases w and removes the diacritics of Latin letters, as
// remove_diacritics does for the common ones, and drops combining marks.
func fold(w string) string {
	w = strings.ToLower(w)
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		if i := strings.IndexRune(accented, r); i >= 0 {
			r = rune(plain[utf8.RuneCountInString(accented[:i])])
		}
		b.WriteRune(r)
	}
	return b.String()
}

// accented and plain map Latin letters with diacritics to their base
// letters: those with a canonical decomposition, as unicode61 folds them
// (ø, ł and đ have none and stay).
const (
	accented = "àáâãäåāăąçćĉċčďèéêëēĕėęěĝğġģĥìíîïĩīĭįĵķĺļľñńņňòóôõöōŏőŕŗřśŝşšţťùúûüũūŭůűųŵýÿŷźżž"
	plain    = "aaaaaaaaacccccdeeeeeeeeegggghiiiiiiiijklllnnnnoooooooorrrssssttuuuuuuuuuuwyyyzzz"
)

// stem returns the Porter stem of a lower-case word as SQLite's FTS5
// porter tokenizer computes it, so that a query word can be looked up in
// the index's vocabulary. Like FTS5, it leaves words shorter than three or
// longer than 64 bytes as they are. It is tested against SQLite's own output.
func stem(w string) string {
	if len(w) < 3 || len(w) > 64 {
		return w
	}
	b := []byte(w)
	b = step1a(b)
	b, ok := step1b(b)
	if ok {
		if b3, ok := replaceAny(b, step1b2, nil); ok {
			b = b3
		} else if c := b[len(b)-1]; !isVowel(c, false) && c != 'l' && c != 's' && c != 'z' && len(b) > 1 && c == b[len(b)-2] {
			b = b[:len(b)-1]
		} else if mEq1(b) && oStar(b) {
			b = append(b, 'e')
		}
	}
	if b[len(b)-1] == 'y' && hasVowel(b[:len(b)-1]) {
		b[len(b)-1] = 'i'
	}
	b, _ = replaceAny(b, step2, mGt0)
	b, _ = replaceAny(b, step3, mGt0)
	b, _ = replaceAny(b, step4, mGt1)
	if n := len(b); b[n-1] == 'e' && (mGt1(b[:n-1]) || mEq1(b[:n-1]) && !oStar(b[:n-1])) {
		b = b[:n-1]
	}
	if n := len(b); n > 1 && b[n-1] == 'l' && b[n-2] == 'l' && mGt1(b[:n-1]) {
		b = b[:n-1]
	}
	return string(b)
}

// A rule replaces a suffix; cond, when set, overrides the step's condition.
type rule struct {
	suffix, repl string
	cond         func([]byte) bool
}

var (
	step1b2 = []rule{{"at", "ate", nil}, {"bl", "ble", nil}, {"iz", "ize", nil}}
	step2   = []rule{
		{"ational", "ate", nil}, {"tional", "tion", nil}, {"enci", "ence", nil}, {"anci", "ance", nil},
		{"izer", "ize", nil}, {"logi", "log", nil}, {"bli", "ble", nil}, {"alli", "al", nil},
		{"entli", "ent", nil}, {"eli", "e", nil}, {"ousli", "ous", nil}, {"ization", "ize", nil},
		{"ation", "ate", nil}, {"ator", "ate", nil}, {"alism", "al", nil}, {"iveness", "ive", nil},
		{"fulness", "ful", nil}, {"ousness", "ous", nil}, {"aliti", "al", nil}, {"iviti", "ive", nil},
		{"biliti", "ble", nil},
	}
	step3 = []rule{
		{"icate", "ic", nil}, {"ative", "", nil}, {"alize", "al", nil}, {"iciti", "ic", nil},
		{"ical", "ic", nil}, {"ful", "", nil}, {"ness", "", nil},
	}
	step4 = []rule{
		{"al", "", nil}, {"ance", "", nil}, {"ence", "", nil}, {"er", "", nil}, {"ic", "", nil},
		{"able", "", nil}, {"ible", "", nil}, {"ant", "", nil}, {"ement", "", nil}, {"ment", "", nil},
		{"ent", "", nil}, {"ion", "", mGt1SorT}, {"ou", "", nil}, {"ism", "", nil}, {"ate", "", nil},
		{"iti", "", nil}, {"ous", "", nil}, {"ive", "", nil}, {"ize", "", nil},
	}
)

// replaceAny applies the first rule of the step whose suffix b ends with
// (and is longer than), when its condition holds for what comes before.
// Like SQLite's generated code, rules are grouped by the next-to-last
// letter and the first suffix that matches is the only one tried.
func replaceAny(b []byte, rules []rule, cond func([]byte) bool) ([]byte, bool) {
	n := len(b)
	if n < 2 {
		return b, false
	}
	for _, r := range rules {
		s := r.suffix
		if s[len(s)-2] != b[n-2] || n <= len(s) || string(b[n-len(s):]) != s {
			continue
		}
		c := cond
		if r.cond != nil {
			c = r.cond
		}
		if c != nil && !c(b[:n-len(s)]) {
			return b, false
		}
		return append(b[:n-len(s)], r.repl...), true
	}
	return b, false
}

func step1a(b []byte) []byte {
	n := len(b)
	if b[n-1] != 's' {
		return b
	}
	switch {
	case b[n-2] == 'e' && (n > 4 && b[n-4] == 's' && b[n-3] == 's' || n > 3 && b[n-3] == 'i'):
		return b[:n-2]
	case b[n-2] == 'e':
		return b[:n-1]
	case b[n-2] != 's':
		return b[:n-1]
	}
	return b
}

// step1b removes eed (to ee), ed and ing, and reports whether ed or ing went.
func step1b(b []byte) ([]byte, bool) {
	n := len(b)
	switch {
	case n > 3 && string(b[n-3:]) == "eed":
		if mGt0(b[:n-3]) {
			return b[:n-1], false
		}
	case n > 2 && string(b[n-2:]) == "ed":
		if hasVowel(b[:n-2]) {
			return b[:n-2], true
		}
	case n > 3 && string(b[n-3:]) == "ing":
		if hasVowel(b[:n-3]) {
			return b[:n-3], true
		}
	}
	return b, false
}

func isVowel(c byte, yIsVowel bool) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || yIsVowel && c == 'y'
}

// gobbleVC skips one vowel-consonant sequence and returns where it ends, 0 when there is none.
func gobbleVC(b []byte, prevCons bool) int {
	cons := prevCons
	i := 0
	for ; i < len(b); i++ {
		if cons = !isVowel(b[i], cons); !cons {
			break
		}
	}
	for i++; i < len(b); i++ {
		if cons = !isVowel(b[i], cons); cons {
			return i + 1
		}
	}
	return 0
}

func mGt0(b []byte) bool { return gobbleVC(b, false) != 0 }

func mGt1(b []byte) bool {
	n := gobbleVC(b, false)
	return n != 0 && gobbleVC(b[n:], true) != 0
}

func mEq1(b []byte) bool {
	n := gobbleVC(b, false)
	return n != 0 && gobbleVC(b[n:], true) == 0
}

func mGt1SorT(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == 's' || b[len(b)-1] == 't') && mGt1(b)
}

// oStar reports whether b ends consonant-vowel-consonant, the last not w, x or y.
func oStar(b []byte) bool {
	n := len(b)
	if n == 0 || b[n-1] == 'w' || b[n-1] == 'x' || b[n-1] == 'y' {
		return false
	}
	mask, cons := 0, false
	for _, c := range b {
		cons = !isVowel(c, cons)
		mask <<= 1
		if cons {
			mask++
		}
	}
	return mask&7 == 5
}

func hasVowel(b []byte) bool {
	for i, c := range b {
		if isVowel(c, i > 0) {
			return true
		}
	}
	return false
}
