package redact

import "strings"

// findPrivate finds <private>…</private> spans, tags included. Tags match
// in any case and may carry attributes (<private reason="x">); spans nest.
// An opening tag never closed runs to the end of the text: when in doubt,
// the text stays private.
func findPrivate(fs []span, s, lower string) []span {
	for i := 0; i < len(lower); {
		j := indexTag(lower, "<private", i)
		if j < 0 {
			break
		}
		end, depth := len(s), 0
		close := -1 // the next closing tag at or after k, found once
		for k := j; k < len(lower); {
			if close < k {
				if close = strings.Index(lower[k:], "</private>"); close < 0 {
					break
				}
				close += k
			}
			if open := indexTag(lower, "<private", k); open >= 0 && open < close {
				depth++
				k = open + len("<private")
				continue
			}
			depth--
			k = close + len("</private>")
			if depth == 0 {
				end = k
				break
			}
		}
		fs = append(fs, span{j, end, KindPrivate})
		i = end
	}
	return fs
}

// indexTag returns the index of the next opening tag named by prefix (such
// as "<private") at or after from: the prefix followed by '>' or a space.
func indexTag(lower, prefix string, from int) int {
	for from < len(lower) {
		j := strings.Index(lower[from:], prefix)
		if j < 0 {
			return -1
		}
		j += from
		if k := j + len(prefix); k < len(lower) && (lower[k] == '>' || lower[k] == ' ' || lower[k] == '\t' || lower[k] == '\n') {
			return j
		}
		from = j + len(prefix)
	}
	return -1
}
