package embed

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
)

// nfkcTable holds the NFKC form of every character whose form can change
// the tokens (written by gen/ref/nfkc.js). The reference normalizes whole
// strings; mapping character by character gives the same text except where
// NFKC composes a sequence (a letter followed by a combining accent), which
// English text rarely holds.
//
//go:embed nfkc.txt
var nfkcTable string

// parseNFKC reads table: lines of a character and its form, as hexadecimal
// code points; lines starting with # are comments.
func parseNFKC(table string) (map[rune]string, error) {
	m := make(map[rune]string, strings.Count(table, "\n"))
	for i, line := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		from, to, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("nfkc.txt:%d: no tab", i+1)
		}
		r, err := strconv.ParseUint(from, 16, 32)
		if err != nil {
			return nil, fmt.Errorf("nfkc.txt:%d: %w", i+1, err)
		}
		var b strings.Builder
		for _, h := range strings.Fields(to) {
			c, err := strconv.ParseUint(h, 16, 32)
			if err != nil {
				return nil, fmt.Errorf("nfkc.txt:%d: %w", i+1, err)
			}
			b.WriteRune(rune(c))
		}
		m[rune(r)] = b.String()
	}
	return m, nil
}
