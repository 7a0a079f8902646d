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
	return d.Passages([]string{fact}, limit)[0]
}

// Passages returns the [Digest.Passage] of each of facts, reading the
// digest once for all of them: a job's facts do not each render every turn.
func (d *Digest) Passages(facts []string, limit int) []string {
	out := make([]string, len(facts))
	if limit <= 0 {
		return out
	}
	wanted := map[string][]int{} // a word to the facts that have it
	for i, f := range facts {
		for w := range passageWords(f) {
			wanted[w] = append(wanted[w], i)
		}
	}
	if len(wanted) == 0 {
		return out
	}
	bests := bestLines(d.Turns, wanted, len(facts))
	lines := map[int][]string{} // the best turns' lines, each rendered once more
	for i, b := range bests {
		if b.score == 0 {
			continue
		}
		if lines[b.turn] == nil {
			lines[b.turn] = turnLines(d.Turns[b.turn])
		}
		out[i] = around(lines[b.turn], b.line, limit)
	}
	return out
}

// A bestLine is the line of a turn that shares the most words with a fact.
type bestLine struct{ turn, line, score int }

// bestLines returns for each of n facts the first line of turns that
// shares the most of its words (wanted maps each word to the facts that
// have it), rendering each turn once.
func bestLines(turns []*Turn, wanted map[string][]int, n int) []bestLine {
	bests := make([]bestLine, n)
	counts := make([]int, n) // of the line's words, per fact
	var touched []int        // the facts whose count is not 0
	seen := map[string]bool{}
	for ti, t := range turns {
		for li, l := range turnLines(t) {
			clear(seen)
			for w := range strings.FieldsFuncSeq(strings.ToLower(l), notWordRune) {
				fs, ok := wanted[w]
				if !ok || seen[w] {
					continue
				}
				seen[w] = true
				for _, i := range fs {
					if counts[i] == 0 {
						touched = append(touched, i)
					}
					counts[i]++
				}
			}
			for _, i := range touched {
				if counts[i] > bests[i].score {
					bests[i] = bestLine{ti, li, counts[i]}
				}
				counts[i] = 0
			}
			touched = touched[:0]
		}
	}
	return bests
}

// turnLines are the lines of t as [Digest.String] renders it, without
// its heading.
func turnLines(t *Turn) []string {
	return strings.Split(strings.TrimRight(renderTurn(t), "\n"), "\n")[1:]
}

// around returns line at of lines with the lines around it, while they
// fit in limit bytes, cut at a character to limit.
func around(lines []string, at, limit int) string {
	lo, hi := at, at+1
	size := len(lines[at])
	for grew := true; grew; {
		grew = false
		if hi < len(lines) && size+1+len(lines[hi]) <= limit {
			size += 1 + len(lines[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+len(lines[lo-1]) <= limit {
			size += 1 + len(lines[lo-1])
			lo--
			grew = true
		}
	}
	return cutAt(strings.Join(lines[lo:hi], "\n"), limit)
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
