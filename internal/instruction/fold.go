package instruction

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/confusable"
)

// fold undoes the disguises a planted instruction can wear that a model
// reads through but a pattern does not: invisible format characters
// inside a word (zero-width spaces and joiners, the word joiner, soft
// hyphens, bidi controls), tag characters (U+E0020–E007E, invisible
// ASCII), full-width letters, no-break and other odd spaces, and Cyrillic
// or Greek letters that look like Latin ones ("Ignоre" with a Cyrillic
// о). The text is only judged, never shown, so the fold may merge words
// of scripts it does not read.
func fold(s string) string {
	if ascii(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0xE0020 && r <= 0xE007E:
			b.WriteByte(byte(r - 0xE0000))
		case unicode.Is(unicode.Cf, r):
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteByte(byte(r - 0xFEE0))
		case r == 0x3000 || r != ' ' && unicode.Is(unicode.Zs, r):
			b.WriteByte(' ')
		default:
			b.WriteRune(confusable.Latin(r))
		}
	}
	return b.String()
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
