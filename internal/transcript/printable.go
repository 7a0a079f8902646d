package transcript

import (
	"strings"
	"unicode/utf8"
)

// Printable returns s without what a terminal or a reader would take for
// something other than text: escape sequences (CSI such as colours and
// screen clears, OSC such as a window title, a clipboard write or a
// hyperlink that hides its target, and the rest), C0 and C1 control
// characters other than newline and tab, and the bidirectional overrides
// that make text read in another order than it is, and bytes that are not
// UTF-8. A transcript's text
// (tool output above all) is anyone's; the digest is printed by mnemo
// digest, sent to a model and quoted for review.
func Printable(s string) string {
	if !needsCleaning(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0x9b { // a C1 CSI: its parameters go with it
			i = skipCSI(s, i+n)
			continue
		}
		if keep(r) && (r != utf8.RuneError || n > 1) { // an invalid byte goes: dropped around it, it could join others into a control
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// needsCleaning reports whether Printable would change s.
func needsCleaning(s string) bool {
	for _, r := range s {
		if r == 0x1b || !keep(r) {
			return true
		}
	}
	return !utf8.ValidString(s)
}

// keep reports whether r is text: not a control character (newline and
// tab aside), not a bidirectional override or isolate.
func keep(r rune) bool {
	switch {
	case r == '\n', r == '\t':
		return true
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return false
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return false
	}
	return true
}

// skipEscape returns the offset past the escape sequence at s[i] (an ESC).
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', '_', '^', 'X': // OSC, DCS, APC, PM, SOS: to BEL or ST (ESC \)
		for j := i + 1; j < len(s); j++ {
			switch {
			case s[j] == 0x07:
				return j + 1
			case s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\':
				return j + 2
			case s[j] == '\n':
				return j // an unterminated string ends with its line
			}
		}
		return len(s)
	}
	return i + 1 // a two-character sequence: ESC and one more
}

// skipCSI returns the offset past a control sequence's parameters and
// final byte, which start at s[i].
func skipCSI(s string, i int) int {
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		} else if c < 0x20 || c > 0x3f && c < 0x40 {
			return i
		}
	}
	return i
}
