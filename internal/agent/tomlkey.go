package agent

import (
	"strconv"
	"strings"
)

// tomlHeader reads a TOML table header line ("[a.b]", "[[a.b]]") into its
// key path, as TOML reads it: spaces around the dots, quoted keys ("x",
// 'x') and a comment after the header are allowed. ok is false for a line
// that is no header (a value, or a line of a multi-line array that starts
// with "[").
func tomlHeader(line string) (path []string, ok bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	closing := "]"
	if strings.HasPrefix(s, "[[") {
		s, closing = s[2:], "]]"
	} else {
		s = s[1:]
	}
	for {
		key, rest, ok := tomlKey(strings.TrimLeft(s, " \t"))
		if !ok {
			return nil, false
		}
		path = append(path, key)
		rest = strings.TrimLeft(rest, " \t")
		if r, ok := strings.CutPrefix(rest, "."); ok {
			s = r
			continue
		}
		r, ok := strings.CutPrefix(rest, closing)
		if r = strings.TrimSpace(r); !ok || r != "" && !strings.HasPrefix(r, "#") {
			return nil, false
		}
		return path, true
	}
}

// tomlKey reads one key at the start of s: bare, "basic" or 'literal'.
func tomlKey(s string) (key, rest string, ok bool) {
	switch {
	case strings.HasPrefix(s, `"`):
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				k, err := strconv.Unquote(s[:i+1])
				return k, s[i+1:], err == nil
			}
		}
		return "", "", false
	case strings.HasPrefix(s, "'"):
		k, rest, ok := strings.Cut(s[1:], "'")
		return k, rest, ok
	}
	n := 0
	for n < len(s) && isBareKeyByte(s[n]) {
		n++
	}
	return s[:n], s[n:], n > 0
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// tomlPath is a key path in one spelling, for comparing paths.
func tomlPath(keys ...string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, ".")
}
