package transcript

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Elide returns s when it has at most max characters (runes). Otherwise it
// keeps at most the first two thirds and the last third of max, cut back to
// a line end when one is in the second half of the head (the first half of
// the tail), joined by a line "[... N chars cut ...]". The
// result never shares memory with s, so a short excerpt does not pin a huge
// string.
func Elide(s string, max int) string {
	n := utf8.RuneCountInString(s)
	if n <= max {
		return strings.Clone(s)
	}
	if max < 2 {
		max = 2
	}
	headRunes := max * 2 / 3
	tailRunes := max - headRunes
	head := s[:runeOffset(s, headRunes)]
	tail := s[runeOffsetFromEnd(s, tailRunes):]
	if i := strings.LastIndexByte(head, '\n'); i >= 0 && i >= len(head)/2 {
		head = head[:i]
	}
	if i := strings.IndexByte(tail, '\n'); i >= 0 && i <= len(tail)/2 {
		tail = tail[i+1:]
	}
	cut := n - utf8.RuneCountInString(head) - utf8.RuneCountInString(tail)
	var b strings.Builder
	b.Grow(len(head) + len(tail) + 32)
	b.WriteString(strings.TrimRight(head, " \t\n"))
	b.WriteString("\n[... ")
	b.WriteString(strconv.Itoa(cut))
	b.WriteString(" chars cut ...]\n")
	b.WriteString(strings.TrimLeft(tail, " \t\n"))
	return b.String()
}

// runeOffset returns the byte offset of the n-th rune of s.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// runeOffsetFromEnd returns the byte offset where the last n runes of s begin.
func runeOffsetFromEnd(s string, n int) int {
	i := len(s)
	for n > 0 && i > 0 {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		n--
	}
	return i
}
