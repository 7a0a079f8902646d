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

// excerptError returns up to n lines of an error output, each cut to width
// characters: lines that name an error first, then the first lines, kept in
// their original order. Tool wrappers such as <tool_use_error> are removed.
func excerptError(s string, n, width int) string {
	s = replaceTag(s, "system-reminder", func(string) string { return "" })
	s = strings.NewReplacer("<tool_use_error>", "", "</tool_use_error>", "").Replace(s)
	var lines []string
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
		if len(lines) >= 2000 { // enough to choose from
			break
		}
	}
	if len(lines) <= n {
		return joinCut(lines, width)
	}
	pick := make([]bool, len(lines))
	count := 0
	for i, line := range lines {
		if count == n {
			break
		}
		if errorish(line) {
			pick[i] = true
			count++
		}
	}
	for i := 0; count < n && i < len(lines); i++ {
		if !pick[i] {
			pick[i] = true
			count++
		}
	}
	var kept []string
	for i, line := range lines {
		if pick[i] {
			kept = append(kept, line)
		}
	}
	return joinCut(kept, width)
}

// errorish reports whether a line of output names an error.
func errorish(line string) bool {
	lower := strings.ToLower(line)
	for _, w := range [...]string{"error", "fail", "panic", "exception", "fatal", "cannot", "can't",
		"not found", "no such", "denied", "undefined", "invalid", "refused", "traceback", "expected"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func joinCut(lines []string, width int) string {
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if utf8.RuneCountInString(line) > width {
			line = line[:runeOffset(line, width)] + " ..."
		}
		b.WriteString(line)
	}
	return b.String()
}
