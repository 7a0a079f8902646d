package transcript

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Passage returns the lines of the digest that a fact most likely came
// from, for a person reviewing it: the line of a turn (as [Digest.String]
// renders it) that shares the most words of three letters or more with
// fact, with the lines around it in its turn, while they fit in limit
// bytes. It is "" when no line shares a word. A line longer than limit is
// cut at a character.
func (d *Digest) Passage(fact string, limit int) string {
	want := passageWords(fact)
	if len(want) == 0 || limit <= 0 {
		return ""
	}
	var best []string
	at, score := 0, 0
	for _, t := range d.Turns {
		lines := strings.Split(strings.TrimRight(renderTurn(t), "\n"), "\n")[1:] // not the heading
		for i, l := range lines {
			if n := shared(want, l); n > score {
				best, at, score = lines, i, n
			}
		}
	}
	if score == 0 {
		return ""
	}
	lo, hi := at, at+1
	size := len(best[at])
	for grew := true; grew; {
		grew = false
		if hi < len(best) && size+1+len(best[hi]) <= limit {
			size += 1 + len(best[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+len(best[lo-1]) <= limit {
			size += 1 + len(best[lo-1])
			lo--
			grew = true
		}
	}
	return cutAt(strings.Join(best[lo:hi], "\n"), limit)
}

// passageWords are the words of s of three letters or more, lower-cased.
func passageWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), notWordRune) {
		if utf8.RuneCountInString(w) >= 3 {
			out[w] = true
		}
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// shared counts the words of want in line.
func shared(want map[string]bool, line string) int {
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(line), notWordRune) {
		if want[w] && !seen[w] {
			seen[w] = true
		}
	}
	return len(seen)
}

// cutAt cuts s to at most limit bytes, at a character, marking the cut.
func cutAt(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit - len("…")
	if cut <= 0 {
		return ""
	}
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
