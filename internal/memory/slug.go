package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
)

const (
	maxSlugWords = 6
	maxSlugLen   = 48
)

// Slug returns a memory name made from a description, for a memory written
// without one. The name is lowercase ASCII: accented Latin letters are folded
// (é to e, ü to u, ß to ss), apostrophes are dropped ("don't" gives "dont"),
// and every other run of characters that are not a-z or 0-9 separates words.
// Of those words, the English stop words a, an, the, of, to, in, on, for, and,
// or, is, are, be, with, that, this and it are dropped unless nothing else is
// left; the first six that fit in 48 characters are joined with "-". A first
// word longer than that is cut at 48 characters.
//
// A description with nothing usable, such as one written only in CJK or
// emoji, gives "memory-" and the first 8 hex digits of the SHA-256 of the
// description, so the name is never empty and the same description always
// gives the same name. Every result matches ^[a-z0-9][a-z0-9-]{0,63}$.
func Slug(description string) string {
	words := slugWords(description)
	if kept := dropStopWords(words); len(kept) > 0 {
		words = kept
	}
	if name := joinSlug(words); name != "" {
		return name
	}
	sum := sha256.Sum256([]byte(description))
	return "memory-" + hex.EncodeToString(sum[:4])
}

// Sluggable reports whether [Slug] can make a name of s's words: false
// when s has no letter or digit it can fold to ASCII (a description in
// Japanese, say), where Slug falls back to memory-<hash>.
func Sluggable(s string) bool { return len(slugWords(s)) > 0 }

// slugWords returns the runs of a-z and 0-9 in s after lowercasing it and
// folding what letters it can to ASCII.
func slugWords(s string) []string {
	var words []string
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, w.String())
			w.Reset()
		}
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			w.WriteRune(r)
		case r == '\'' || r == '’' || unicode.Is(unicode.Mn, r):
			// An apostrophe or a combining accent belongs to the word it is in.
		case asciiFold[r] != "":
			w.WriteString(asciiFold[r])
		default:
			flush()
		}
	}
	flush()
	return words
}

var slugStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "and": true, "or": true, "is": true, "are": true,
	"be": true, "with": true, "that": true, "this": true, "it": true,
}

func dropStopWords(words []string) []string {
	var kept []string
	for _, w := range words {
		if !slugStopWords[w] {
			kept = append(kept, w)
		}
	}
	return kept
}

// joinSlug joins the first words that fit within maxSlugWords and maxSlugLen.
func joinSlug(words []string) string {
	if len(words) == 0 {
		return ""
	}
	name := words[0]
	if len(name) > maxSlugLen {
		return name[:maxSlugLen]
	}
	for _, w := range words[1:min(len(words), maxSlugWords)] {
		if len(name)+1+len(w) > maxSlugLen {
			break
		}
		name += "-" + w
	}
	return name
}

// asciiFold maps the lowercase Latin letters with diacritics, and a few
// ligatures, to ASCII.
var asciiFold = func() map[rune]string {
	groups := map[string]string{
		"a": "àáâãäåāăą", "c": "çćĉċč", "d": "ďđð", "e": "èéêëēĕėęě",
		"g": "ĝğġģ", "h": "ĥħ", "i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķ",
		"l": "ĺļľŀł", "n": "ñńņňŉ", "o": "òóôõöøōŏő", "r": "ŕŗř",
		"s": "śŝşšſ", "t": "ţťŧ", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ",
		"z": "źżž", "ss": "ß", "ae": "æ", "oe": "œ", "th": "þ",
	}
	fold := make(map[rune]string)
	for ascii, letters := range groups {
		for _, r := range letters {
			fold[r] = ascii
		}
	}
	return fold
}()
