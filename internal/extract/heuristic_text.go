package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
)

// prose returns the lines of text a person wrote, without what they
// pasted ([provenance.OwnLines]), and without the markers of list items.
func prose(text string) []string {
	lines := provenance.OwnLines(text)
	for i, l := range lines {
		lines[i] = stripBullet(l)
	}
	return lines
}

// stripBullet removes a list marker: "- ", "* ", "• ", "1. ", "2) ".
func stripBullet(s string) string {
	for _, p := range []string{"- ", "* ", "• ", "+ "} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return strings.TrimSpace(rest)
		}
	}
	i := 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimSpace(s[i+2:])
	}
	return s
}

// A sentence is one sentence of a prompt or message, with the number of
// the paragraph it belongs to.
type sentence struct {
	text string
	para int
}

// sentences splits text into sentences: at line breaks (a list item or a
// line is a sentence of its own) and after ".", "!" or "?" followed by a
// space, except after a few abbreviations. Semicolons do not split: the
// clause before one is often the reason for the one after.
func sentences(text string) []sentence {
	var out []sentence
	para := 0
	for _, line := range prose(text) {
		if line == "" {
			para++
			continue
		}
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if c != '.' && c != '!' && c != '?' {
				continue
			}
			j := i + 1
			for j < len(line) && (line[j] == '.' || line[j] == '!' || line[j] == '?' || line[j] == '"' || line[j] == ')') {
				j++
			}
			if j < len(line) && line[j] != ' ' {
				continue // a path, a version, a URL
			}
			if c == '.' && abbreviation(line[start:i]) {
				continue
			}
			if s := strings.TrimSpace(line[start:j]); s != "" {
				out = append(out, sentence{s, para})
			}
			start = j
			i = j - 1
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, sentence{s, para})
		}
	}
	return out
}

func abbreviation(before string) bool {
	fields := strings.Fields(before)
	if len(fields) == 0 {
		return false
	}
	switch strings.ToLower(fields[len(fields)-1]) {
	case "e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "no", "fig", "mr", "ms", "dr":
		return true
	}
	return false
}

// typographic folds typographic quotes to ASCII. A Replacer is safe for
// concurrent use and is not changed once made; its tables are built on
// first use.
var typographic = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`)

// lower folds s to lower case and typographic apostrophes to ASCII, for
// the rules to match. Text without the quotes' common first bytes (U+2018
// to U+201D all begin E2 80) is only lower-cased.
func lower(s string) string {
	if strings.Contains(s, "\xe2\x80") {
		s = typographic.Replace(s)
	}
	return strings.ToLower(s)
}

// tidy trims a statement for use as a fact: spaces collapsed, a leading
// discourse marker ("also,", "oh and", "btw") removed, the first letter
// capitalised.
func tidy(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for {
		l := lower(s)
		cut := false
		for _, p := range []string{"also,", "also", "and also", "and", "but", "so", "ok so", "ok,", "okay,", "oh and", "oh,", "btw,", "btw", "by the way,", "one more thing:", "another thing:", "please,", "please",
			"basically,", "basically", "just so you know,", "just so you know:", "fyi,", "fyi:", "fyi", "for the record,", "heads up,", "heads up:", "i mean,", "you know,", "note:", "well,"} {
			if strings.HasPrefix(l, p+" ") {
				s = strings.TrimSpace(s[len(p):])
				cut = true
				break
			}
		}
		if !cut {
			break
		}
	}
	return capitalize(s)
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// describe makes a description (at most memory.MaxDescriptionLen
// characters, one line) from a fact's text: the whole text when it fits,
// else its first sentence or clause that does, else the text cut at a
// word with "…".
func describe(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	text = strings.TrimRight(text, ".!")
	limit := memory.MaxDescriptionLen
	if utf8.RuneCountInString(text) <= limit {
		return text
	}
	for _, sep := range []string{". ", "; ", " — ", ": ", ", "} {
		if i := strings.Index(text, sep); i >= 40 && utf8.RuneCountInString(text[:i]) <= limit {
			best := i
			for j := i + 1; j < len(text); {
				k := strings.Index(text[j:], sep)
				if k < 0 || utf8.RuneCountInString(text[:j+k]) > limit {
					break
				}
				best = j + k
				j += k + 1
			}
			return strings.TrimRight(text[:best], ".!,;:")
		}
	}
	r := []rune(text)[:limit-1]
	s := string(r)
	if i := strings.LastIndexByte(s, ' '); i > limit/2 {
		s = s[:i]
	}
	return strings.TrimRight(s, ".,;: ") + "…"
}
