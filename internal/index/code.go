package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsCode reports whether a whitespace-separated chunk of text looks like
// code, whose parts a person may search for: an identifier with an inner
// capital or an underscore (UserService, max_retries), or a path or file
// name (internal/auth, service.go). Such chunks, and text written without
// spaces, are what the substring index holds.
func IsCode(s string) bool {
	if utf8.RuneCountInString(s) < 3 {
		return false
	}
	for i, r := range s {
		switch {
		case i > 0 && unicode.IsUpper(r), r == '_', r == '/', r == '.' && i > 0 && i < len(s)-1:
			return true
		}
	}
	return false
}

// TrimChunk removes the punctuation around a whitespace-separated chunk.
func TrimChunk(s string) string {
	return strings.Trim(s, "\"'`()[]{}<>,;:!?*^")
}

// isSpaceless reports whether r belongs to a script written without spaces
// between words (Han, Hiragana, Katakana, Hangul, Thai...), whose words the
// word index cannot cut.
func isSpaceless(r rune) bool {
	return r >= 0x0E00 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul,
		unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// codeText is what the substring index holds of a memory: its name, its
// anchored paths, and from its other text the chunks that look like code
// and the chunks written without spaces. Trigrams of whole descriptions
// and bodies made the index three times as slow to build, for queries
// that only ever look up code and text without spaces.
func codeText(name, paths string, texts ...string) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteString("\n")
	b.WriteString(paths)
	for _, t := range texts {
		for _, f := range strings.Fields(t) {
			f = TrimChunk(f)
			if IsCode(f) || strings.IndexFunc(f, isSpaceless) >= 0 {
				b.WriteString("\n")
				b.WriteString(f)
			}
		}
	}
	return b.String()
}
