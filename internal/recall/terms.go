package recall

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// Limits of what a query's text can turn into.
const (
	MaxTerms      = 32 // distinct words searched; the rest of a long text is ignored
	MaxSubstrings = 16 // substrings searched in the trigram index
	maxTermRunes  = 64 // a longer word is cut: no real word is that long
)

// Terms returns the words of text to search for: runs of letters and digits
// (the FTS5 unicode61 tokenizer's idea of a word), lower-cased, once each,
// stop words dropped unless nothing else is left, at most [MaxTerms]. Any
// text is safe, including FTS5 operators, quotes, NUL bytes and invalid UTF-8.
func Terms(text string) []string {
	var all, content []string
	seen := make(map[string]bool)
	for w := range words(text) {
		if seen[w] {
			continue
		}
		seen[w] = true
		if len(all) < MaxTerms {
			all = append(all, w)
		}
		if !isStopWord(w) {
			content = append(content, w)
			if len(content) == MaxTerms {
				break
			}
		}
	}
	if len(content) == 0 {
		return all
	}
	return content
}

// words yields the lower-cased words of text.
func words(text string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i, r := range text {
			if isWordRune(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && !yield(normalize(text[start:i])) {
				return
			}
			start = -1
		}
		if start >= 0 {
			yield(normalize(text[start:]))
		}
	}
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

func normalize(w string) string {
	w = strings.ToLower(w)
	if utf8.RuneCountInString(w) > maxTermRunes {
		w = string([]rune(w)[:maxTermRunes])
	}
	return w
}

// Substrings returns what text should be looked up with in the trigram
// index: identifiers and paths as written (UserServ, service.go,
// internal/auth), and the three-character windows of text written without
// spaces (CJK). They are what the word index cannot find.
func Substrings(text string) []string {
	var out []string
	seen := make(map[string]bool)
	add := func(s string) bool {
		if !seen[s] && utf8.RuneCountInString(s) >= 3 {
			seen[s] = true
			out = append(out, s)
		}
		return len(out) < MaxSubstrings
	}
	for _, f := range strings.Fields(strings.ToValidUTF8(text, " ")) {
		f = index.TrimChunk(f)
		if index.IsCode(f) && !add(truncate(f, maxTermRunes)) {
			return out
		}
		for _, run := range scriptRuns(f) {
			for i := 0; i+3 <= len(run); i++ {
				if !add(string(run[i : i+3])) {
					return out
				}
			}
		}
	}
	return out
}

// scriptRuns returns the runs of Han, Hiragana, Katakana and Hangul in s:
// scripts written without spaces between words.
func scriptRuns(s string) [][]rune {
	var runs [][]rune
	var cur []rune
	for _, r := range s {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			cur = append(cur, r)
			continue
		}
		if len(cur) > 0 {
			runs = append(runs, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		runs = append(runs, cur)
	}
	return runs
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
