package instruction

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
			b.WriteRune(latin(r))
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

// latin returns the Latin letter a Cyrillic or Greek letter is drawn
// like, or r.
func latin(r rune) rune {
	switch r {
	case 'а', 'α', 'А', 'Α':
		return 'a'
	case 'в', 'В', 'β', 'Β':
		return 'b'
	case 'с', 'С', 'ϲ':
		return 'c'
	case 'ԁ':
		return 'd'
	case 'е', 'Е', 'Ε', 'ё':
		return 'e'
	case 'һ', 'Н', 'Η':
		return 'h'
	case 'і', 'І', 'ι', 'Ι', 'ӏ':
		return 'i'
	case 'ј', 'Ј':
		return 'j'
	case 'к', 'К', 'κ', 'Κ':
		return 'k'
	case 'м', 'М', 'Μ':
		return 'm'
	case 'Ν':
		return 'n'
	case 'о', 'О', 'ο', 'Ο':
		return 'o'
	case 'р', 'Р', 'ρ', 'Ρ':
		return 'p'
	case 'ԛ':
		return 'q'
	case 'ѕ', 'Ѕ':
		return 's'
	case 'т', 'Т', 'τ', 'Τ':
		return 't'
	case 'υ', 'Υ':
		return 'u'
	case 'ν':
		return 'v'
	case 'ԝ':
		return 'w'
	case 'х', 'Х', 'χ', 'Χ':
		return 'x'
	case 'у', 'У', 'γ':
		return 'y'
	case 'Ζ':
		return 'z'
	}
	return r
}
