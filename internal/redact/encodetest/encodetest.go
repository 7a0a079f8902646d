package encodetest

import (
	"fmt"
	"strings"
)

// EscapeAll writes each byte of s in format: "%%%02X" for a URL,
// `\x%02x` for a Python or C string, `\u%04x` for JSON, "&#%d;" for HTML,
// `\%03o` for a C or shell string, `\0%03o` for echo -e or printf's %b.
func EscapeAll(s, format string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// Wrap cuts s into lines of n characters, as base64 -w n writes them.
func Wrap(s string, n int) string {
	var lines []string
	for s != "" {
		k := min(n, len(s))
		lines, s = append(lines, s[:k]), s[k:]
	}
	return strings.Join(lines, "\n")
}
