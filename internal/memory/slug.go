package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/redact"
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
// word longer than that is cut at 48 characters. A name cut short of the
// description's words ends where a phrase ends: at the last punctuation
// among the words kept, when that keeps at least half of them, and never
// on a word that needs the words after it (a preposition, conjunction,
// determiner, auxiliary or modal, "not"): "Ledger IDs are ULIDs: sort them
// as strings" gives "ledger-ids-ulids", not "ledger-ids-ulids-sort-them-as".
//
// A redaction marker ("[REDACTED:password]") is no word of the
// description. A description with nothing usable, such as one written
// only in CJK or emoji, or only a redacted secret, gives "memory-" and the first 8 hex digits of the SHA-256 of the
// description, so the name is never empty and the same description always
// gives the same name. Every result matches ^[a-z0-9][a-z0-9-]{0,63}$.
func Slug(description string) string {
	words := slugWords(redact.Unmarked(description)) // "[REDACTED:password]" names nothing
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
func Sluggable(s string) bool { return len(slugWords(redact.Unmarked(s))) > 0 }

// A slugWord is a word of a description, and whether a phrase ends after
// it (punctuation follows it: , ; : ! ? ( ) a dash, or a full stop).
type slugWord struct {
	text      string
	phraseEnd bool
}

// slugWords returns the runs of a-z and 0-9 in s after lowercasing it and
// folding what letters it can to ASCII, each marked when a phrase ends
// after it.
func slugWords(s string) []slugWord {
	var words []slugWord
	var w strings.Builder
	flush := func() {
		if w.Len() > 0 {
			words = append(words, slugWord{text: w.String()})
			w.Reset()
		}
	}
	rs := []rune(strings.ToLower(s))
	for i, r := range rs {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			w.WriteRune(r)
		case r == '\'' || r == '’' || unicode.Is(unicode.Mn, r):
			// An apostrophe or a combining accent belongs to the word it is in.
		case asciiFold[r] != "":
			w.WriteString(asciiFold[r])
		default:
			flush()
			if len(words) > 0 && endsPhrase(r, rs[i+1:]) {
				words[len(words)-1].phraseEnd = true
			}
		}
	}
	flush()
	return words
}

// endsPhrase reports whether the punctuation r, followed by rest, ends a
// phrase: a full stop only before a space or the end ("1.26" and
// "auth.go" go on).
func endsPhrase(r rune, rest []rune) bool {
	switch r {
	case ',', ';', ':', '!', '?', '(', ')', '—', '–':
		return true
	case '.':
		return len(rest) == 0 || unicode.IsSpace(rest[0])
	case '-':
		return len(rest) > 0 && unicode.IsSpace(rest[0]) // " - " between words, not "read-only"
	}
	return false
}

var slugStopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "and": true, "or": true, "is": true, "are": true,
	"be": true, "with": true, "that": true, "this": true, "it": true,
}

// dropStopWords leaves out the stop words; a phrase that ended after one
// ends after the word before it.
func dropStopWords(words []slugWord) []slugWord {
	var kept []slugWord
	for _, w := range words {
		switch {
		case !slugStopWords[w.text]:
			kept = append(kept, w)
		case w.phraseEnd && len(kept) > 0:
			kept[len(kept)-1].phraseEnd = true
		}
	}
	return kept
}

// joinSlug joins the first words that fit within maxSlugWords and
// maxSlugLen. When that leaves words out, the name ends where a phrase
// ends: at the last punctuation among the words kept when that keeps at
// least half of them, and never on a word that needs the words after it
// ([endsOpen]).
func joinSlug(words []slugWord) string {
	if len(words) == 0 {
		return ""
	}
	if len(words[0].text) > maxSlugLen {
		return words[0].text[:maxSlugLen]
	}
	n, size := 1, len(words[0].text)
	for n < min(len(words), maxSlugWords) && size+1+len(words[n].text) <= maxSlugLen {
		size += 1 + len(words[n].text)
		n++
	}
	if n < len(words) && !words[n-1].phraseEnd {
		for k := n - 1; k >= 1 && 2*k >= n; k-- {
			if words[k-1].phraseEnd {
				n = k
				break
			}
		}
		for n > 1 && endsOpen[words[n-1].text] {
			n--
		}
	}
	out := make([]string, n)
	for i, w := range words[:n] {
		out[i] = w.text
	}
	return strings.Join(out, "-")
}

// endsOpen are the English function words that cannot end a phrase: the
// prepositions, conjunctions, determiners, auxiliaries and modals that
// need the words after them. A name cut after one is cut mid-phrase.
var endsOpen = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		about above across after against along among around as at before behind below beneath beside
		besides between beyond by despite during except for from in inside into like near of on onto
		per since than through throughout till to toward towards under unlike until upon via with
		within without
		and but or nor so yet because although though if unless whether while whereas once when where
		whenever wherever
		a an the this that these those my your his her its our their each every either neither no
		some any all both such what which whose who whom
		am is are was were be been being do does did have has had can could may might must shall
		should will would not`) {
		m[w] = true
	}
	return m
}()

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
