package web

import (
	"strings"

	"github.com/rogpeppe/go-internal/diff"
)

// A diffLine is one line of a line diff: Op is ' ', '-' or '+'.
type diffLine struct {
	Op   string
	Text string
}

// diffLines is the line diff of a and b, from the same diff that 'mnemo
// verify --fix' shows, without its file and hunk headers.
func diffLines(a, b string) []diffLine {
	var out []diffLine
	for _, l := range strings.Split(string(diff.Diff("old", []byte(a+"\n"), "new", []byte(b+"\n"))), "\n") {
		if l == "" || strings.HasPrefix(l, "diff ") || strings.HasPrefix(l, "---") || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "@@") || strings.HasPrefix(l, `\`) {
			continue
		}
		out = append(out, diffLine{Op: l[:1], Text: l[1:]})
	}
	return out
}
