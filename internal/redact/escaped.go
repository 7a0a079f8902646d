package redact

import (
	"html"
	"strings"
	"unicode/utf8"
)

// escapeContext is how far around its escapes a window of text is
// decoded, so that the words before a secret (a name, "the password
// is") are read with it; escapes closer than this share a window.
const escapeContext = 128

// findEscaped finds secrets written with escapes: percent-encoding
// (ghp%5F…, password%3D…), the backslash escapes of JSON, JavaScript,
// Python, C and shell (\u0067hp_…, \x41KIA…, \u{41}, \101, \0101, \U00000041)
// and the character references of HTML and XML (&#x67;hp&lowbar;…). Each window of text around
// escapes is unescaped and read by the detectors of [Redactor.findIn];
// what they find is mapped back to the escaped text, so only the secret
// goes and the words around it stay.
func (r *Redactor) findEscaped(fs []span, s string, depth int) []span {
	sc := escapes{s: s}
	for e := sc.next(0); e >= 0; {
		lo := wordStart(s, max(0, e-escapeContext))
		hi := e + escapeLen(s, e)
		for hi-lo < maxDecoded {
			n := sc.next(hi)
			if n < 0 || n-hi > escapeContext {
				break
			}
			hi = n + escapeLen(s, n)
		}
		hi = wordEnd(s, min(len(s), hi+escapeContext))
		fs = r.findWindow(fs, s, lo, hi, depth)
		e = sc.next(hi)
	}
	return fs
}

// findWindow adds what the detectors find in s[lo:hi] unescaped.
func (r *Redactor) findWindow(fs []span, s string, lo, hi, depth int) []span {
	text, at := unescape(s[lo:hi])
	for _, f := range r.findIn(text, depth+1) {
		if f.kind == KindPrivate {
			continue
		}
		end := f.end
		for end < len(text) && at[end] == at[end-1] {
			end++ // the rest of a character one escape wrote
		}
		fs = append(fs, span{lo + at[f.start], lo + at[end], f.kind})
	}
	return fs
}

// wordStart moves i back to the start of the word it is in, a little.
func wordStart(s string, i int) int {
	for stop := max(0, i-escapeContext); i > stop && !isSpace(s[i-1]); i-- {
	}
	return i
}

// wordEnd moves i on to the end of the word it is in, a little.
func wordEnd(s string, i int) int {
	for stop := min(len(s), i+escapeContext); i < stop && !isSpace(s[i]); i++ {
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// escapeStarts are the bytes an escape starts with: percent-encoding,
// backslash escapes and HTML or XML character references.
const escapeStarts = "%\\&"

// escapes finds the escapes of s in order. It keeps where the next byte of
// each of [escapeStarts] is, so that text with many of one and none of
// the others is scanned once.
type escapes struct {
	s        string
	at       [len(escapeStarts)]int // offset of the next one at or after the last search, -1 for none left
	searched bool
}

// next returns the offset of the first escape at or after i, or -1. An
// escaped backslash (\\) is no escape, nor what follows it. Calls must
// not go back: i is at least the last offset given.
func (sc *escapes) next(i int) int {
	s := sc.s
	for {
		j := -1
		for k := range sc.at {
			if !sc.searched || sc.at[k] >= 0 && sc.at[k] < i {
				sc.at[k] = indexFrom(s, escapeStarts[k], i)
			}
			if sc.at[k] >= 0 && (j < 0 || sc.at[k] < j) {
				j = sc.at[k]
			}
		}
		sc.searched = true
		switch {
		case j < 0:
			return -1
		case s[j] == '\\' && j+1 < len(s) && s[j+1] == '\\':
			i = j + 2
		case escapeLen(s, j) > 0:
			return j
		default:
			i = j + 1
		}
	}
}

// indexFrom returns the offset of the first c in s at or after i, or -1.
func indexFrom(s string, c byte, i int) int {
	if i >= len(s) {
		return -1
	}
	if j := strings.IndexByte(s[i:], c); j >= 0 {
		return i + j
	}
	return -1
}

// escapeLen returns the length of the escape at i (%41, \x41, \101,
// \0101, \u0041, \u{41}, \U00000041, &#65;, &#x41;, &lowbar;), or 0 when
// none starts there.
func escapeLen(s string, i int) int {
	hexRun := func(j, n int) bool { return j+n <= len(s) && allHex(s[j:j+n]) }
	switch {
	case s[i] == '%' && hexRun(i+1, 2):
		return 3
	case s[i] == '&':
		return charRefLen(s, i)
	case s[i] != '\\' || i+1 >= len(s):
		return 0
	case s[i+1] == 'x' && hexRun(i+2, 2):
		return 4
	case octalDigits(s, i+1) > 0:
		return 1 + octalDigits(s, i+1)
	case s[i+1] == 'U' && hexRun(i+2, 8):
		return 10
	case s[i+1] != 'u':
		return 0
	case hexRun(i+2, 4):
		return 6
	case i+2 < len(s) && s[i+2] == '{':
		if k := strings.IndexByte(s[i+3:min(len(s), i+10)], '}'); k > 0 && allHex(s[i+3:i+3+k]) {
			return k + 4
		}
	}
	return 0
}

// octalDigits returns how many digits of an octal escape of a byte s
// holds at i, or 0: three as C, Python and the shell's $'…' write it
// (\101 for A), or a 0 and three as echo -e and printf's %b write it
// (\0101). One or two digits are left out, as they are mostly something
// else (\0, a regular expression's \1). C reads \0101 as \010 and a 1; it
// is read as echo's, since C rarely writes a control character (the bytes
// \000 to \037) in octal right before a digit, while echo -e's form
// writes every byte of a secret so.
func octalDigits(s string, i int) int {
	switch {
	case i+4 <= len(s) && s[i] == '0' && isOctalByte(s[i+1:i+4]):
		return 4
	case i+3 <= len(s) && isOctalByte(s[i:i+3]):
		return 3
	}
	return 0
}

// isOctalByte reports whether d, three characters, are the octal digits of
// a byte (000 to 377).
func isOctalByte(d string) bool {
	return '0' <= d[0] && d[0] <= '3' && isOctalDigit(d[1]) && isOctalDigit(d[2])
}

func isOctalDigit(c byte) bool { return '0' <= c && c <= '7' }

// maxRefName is the length of the longest name of an HTML character
// reference (&CounterClockwiseContourIntegral;).
const maxRefName = 32

// charRefLen returns the length of the HTML or XML character reference
// at i: &#65; or &#x41; (the ';' may be left out, as HTML allows) or a
// named one such as &lowbar; or &amp; (with its ';'), or 0.
func charRefLen(s string, i int) int {
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		digit := isDigit
		if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
			j, digit = j+1, isHexDigit
		}
		k := j
		for k < len(s) && k-j < 8 && digit(s[k]) {
			k++
		}
		if k == j {
			return 0
		}
		if k < len(s) && s[k] == ';' {
			k++
		}
		return k - i
	}
	k := j
	for k < len(s) && k-j < maxRefName && isAlnum(s[k]) {
		k++
	}
	if k == j || k >= len(s) || s[k] != ';' {
		return 0
	}
	if ref := s[i : k+1]; html.UnescapeString(ref) != ref {
		return k + 1 - i
	}
	return 0
}

// unescape returns s with its escapes undone, and for each byte of the
// result (and its end) the offset in s it came from.
func unescape(s string) (string, []int) {
	var b strings.Builder
	b.Grow(len(s))
	at := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		n := 0
		if strings.IndexByte(escapeStarts, s[i]) >= 0 {
			n = escapeLen(s, i)
		}
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '\\' {
			n = 0
			b.WriteByte('\\')
			at = append(at, i)
			i++
		}
		if n == 0 {
			b.WriteByte(s[i])
			at = append(at, i)
			i++
			continue
		}
		before := b.Len()
		writeEscaped(&b, s[i:i+n])
		for range b.Len() - before {
			at = append(at, i)
		}
		i += n
	}
	return b.String(), append(at, len(s))
}

// writeEscaped writes what the escape e stands for: a byte for %41, \x41,
// \101 and \0101, a character in UTF-8 for \u0041, \u{41}, \U00000041 and a
// character reference.
func writeEscaped(b *strings.Builder, e string) {
	switch {
	case e[0] == '&':
		b.WriteString(html.UnescapeString(e))
		return
	case octalDigits(e, 1) > 0:
		d := e[len(e)-3:] // the last three digits: \101, or \0101's
		b.WriteByte((d[0]-'0')<<6 | (d[1]-'0')<<3 | (d[2] - '0'))
		return
	}
	digits := strings.Trim(e[1:], "xuU{}")
	v := 0
	for i := 0; i < len(digits); i++ {
		v = v<<4 | hexValue(digits[i])
	}
	if e[0] == '%' || e[1] == 'x' {
		b.WriteByte(byte(v))
		return
	}
	if !utf8.ValidRune(rune(v)) {
		v = utf8.RuneError
	}
	b.WriteRune(rune(v))
}

func hexValue(c byte) int {
	switch {
	case c <= '9':
		return int(c - '0')
	case c <= 'F':
		return int(c-'A') + 10
	}
	return int(c-'a') + 10
}
