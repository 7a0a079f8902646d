package redact

import "strings"

// A credential may come in pieces: wrapped at a line break when it was
// pasted, or cut into string literals joined in code:
//
//	token = "ghp_8kL2mN9vQ4rT7xW1" +
//	        "cB5zH3jF6pS0gA2eY4uI"
//	BOT=ghp_8kL2mN9vQ4rT7xW1cB5zH3j
//	  F6pS0gA2eY4uI
//
// Each piece alone may be too short to tell, and the last one, left
// behind, would leak the end of the secret. So a finding that stops where
// a piece follows takes the piece with it, and a token that starts with a
// provider's prefix but is too short for it is joined to its pieces and
// judged whole.

// maxPieces bounds the pieces joined to one credential; minCut is the
// shortest finding taken for the first piece of a longer one.
const (
	maxPieces = 4
	minCut    = 16
)

// joinSplit extends the findings that can continue in pieces over the
// pieces that follow them.
func (r *Redactor) joinSplit(fs []span, s string) []span {
	for i := range fs {
		if joinable(fs[i].kind) && fs[i].end-fs[i].start >= minCut {
			fs[i] = r.extend(s, fs[i])
		}
	}
	return fs
}

// joinable reports whether a finding of the kind may continue in pieces:
// a credential or a key, not a password, a URL's password or a block.
func joinable(kind string) bool {
	switch kind {
	case KindPrivate, KindPrivateKey, KindURLPassword, KindPassword:
		return false
	}
	return true
}

// splitAt reports whether a piece of a token may follow the byte c that
// ends it: a line break, a quote, a line continuation.
func splitAt(c byte) bool {
	return c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`' || c == '\\'
}

// joinPrefixed finds a provider's credential whose first piece, the token
// s[i:j], is too short to be one by itself.
func (r *Redactor) joinPrefixed(fs []span, s string, i, j int) []span {
	if j >= len(s) || !splitAt(s[j]) {
		return fs
	}
	tok := s[i:j]
	if r.providers.prefixed(tok) == nil || r.providers.kind(tok) != "" {
		return fs
	}
	if sp := r.extend(s, span{i, j, ""}); sp.kind != "" {
		fs = append(fs, sp)
	}
	return fs
}

// extend returns sp over the pieces that follow it, named by the
// provider's kind when the pieces make a credential of one. A span
// without a kind is returned as it is unless they do.
func (r *Redactor) extend(s string, sp span) span {
	joined := s[sp.start:sp.end]
	hex := allHex(joined)
	end := sp.end
	for range maxPieces {
		if p := r.providers.prefixed(joined); p != nil && p.complete(joined) {
			break
		}
		ps, pe, literal, ok := continuation(s, end)
		if !ok || !r.pieceFits(s[ps:pe], hex, literal) {
			break
		}
		joined += s[ps:pe]
		end = pe
	}
	if end == sp.end {
		return sp
	}
	if k := r.providers.kind(joined); k != "" {
		sp.kind = k
	} else if sp.kind == "" {
		return sp
	}
	sp.end = end
	return sp
}

// pieceFits reports whether piece may continue a token: hex after hex; a
// piece after a line break holds a digit or mixes cases, so that the next
// line's first word is not taken for one.
func (r *Redactor) pieceFits(piece string, hex, literal bool) bool {
	if hex {
		return allHex(piece) && (literal || len(piece) >= 4)
	}
	if literal {
		return true
	}
	return len(piece) >= 4 && (strings.ContainsAny(piece, "0123456789") || mixedCase(piece)) &&
		!r.bigrams.wordLike(piece) && !segmentedName(piece)
}

func isPieceChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

// continuation returns the piece of a token that follows end, if a split
// is there: a string literal closed, joined (+, ., .., &, || or nothing)
// and opened again; or a line break, maybe after a backslash, then
// indentation. literal tells which.
func continuation(s string, end int) (start, stop int, literal, ok bool) {
	if end >= len(s) {
		return 0, 0, false, false
	}
	switch c := s[end]; c {
	case '"', '\'', '`':
		j := skipBlank(s, end+1)
		for _, op := range [...]string{"+", "..", ".", "&", "||"} {
			if strings.HasPrefix(s[j:], op) {
				j = skipBlank(s, j+len(op))
				break
			}
		}
		if j == end+1 || j >= len(s) || s[j] != c {
			return 0, 0, false, false
		}
		k := j + 1
		for k < len(s) && isPieceChar(s[k]) {
			k++
		}
		if k == j+1 || k >= len(s) || s[k] != c {
			return 0, 0, false, false
		}
		return j + 1, k, true, true
	case '\\', '\r', '\n':
		j := end
		if c == '\\' {
			j++
		}
		if j < len(s) && s[j] == '\r' {
			j++
		}
		if j >= len(s) || s[j] != '\n' {
			return 0, 0, false, false
		}
		j = skipSpaces(s, j+1)
		k := j
		for k < len(s) && isPieceChar(s[k]) {
			k++
		}
		if k == j || k < len(s) && !pieceEnd(s, k) {
			return 0, 0, false, false
		}
		return j, k, false, true
	}
	return 0, 0, false, false
}

// pieceEnd reports whether a piece may end at k: at a space, a line end,
// a quote or punctuation that ends a sentence or a list.
func pieceEnd(s string, k int) bool {
	switch s[k] {
	case ' ', '\t', '\r', '\n', '"', '\'', '`', ',', ';', ')', ']', '}':
		return true
	case '.':
		return k+1 == len(s) || s[k+1] == ' ' || s[k+1] == '\n'
	}
	return false
}

// skipBlank skips spaces, tabs, line breaks and backslash line
// continuations.
func skipBlank(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n':
			i++
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r'):
			i++
		default:
			return i
		}
	}
	return i
}

func allHex(v string) bool {
	for i := 0; i < len(v); i++ {
		if !isHexDigit(v[i]) {
			return false
		}
	}
	return v != ""
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
