package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"
)

// Bounds of the decoding of encoded runs: a secret written encoded is
// still a secret, but decoding must cost little on ordinary text.
const (
	// maxDepth is how many encodings inside each other are undone: the
	// percent-encoding of the base64 of the hex of a token is found (a
	// URL, an HTML page or a JSON string over base64 over hex: three
	// layers tools write), a fourth layer is not. Nothing nests in
	// ordinary text, so a level costs nothing there; where every fifth
	// line of a 3 MB text is nested, each level costs about as much as the
	// last (BenchmarkStringNested: percent 237, 297, 365 ms at 2, 3, 4
	// levels; base64 262, 280, 294 ms), because a window of escapes is
	// read again whole, context and all. Four layers are deliberate; of
	// base64 they read as random and the entropy rule takes them.
	maxDepth = 3
	// maxDecoded bounds the bytes decoded from one run or one window of
	// escapes; a longer run is judged by its first maxDecoded bytes.
	maxDecoded = 64 << 10
	// minBase64 and minHex are the shortest runs decoded: 12 and 16 bytes.
	minBase64 = 16
	minHex    = 32
	// textPrefix is how many characters of a run are decoded first, to
	// drop what decodes to binary (hashes, images, identifiers) early.
	textPrefix = 64
)

// findEncoded finds the runs of s that are hex, base64 or base64url of
// text holding a secret, by the detectors of [Redactor.findIn] on the
// decoded text: each such run goes whole, named by the kind of the most
// specific secret it hides. Consecutive lines of base64 wrapped at any
// width (76 as base64(1) writes it, 64 as PEM does, 70 or 50 as other
// tools do) are decoded together.
func (r *Redactor) findEncoded(fs []span, s string, depth int) []span {
	var group []run // lines of one wrapped run, each decoding to text
	n := 0          // characters in the lines of group
	flush := func() {
		if len(group) > 0 {
			fs = r.judgeRuns(fs, s, group, depth)
			group, n = group[:0], 0
		}
	}
	for i := 0; i < len(s); {
		if !r.base64[s[i]] {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && r.base64[s[j]] {
			j++
		}
		if j-i < minBase64 && len(group) == 0 {
			i = j // a word
			continue
		}
		ru := run{i, padded(s, j)}
		i = ru.end
		short := ru.end-ru.start < minBase64 // the last line of a wrapped run
		if len(group) > 0 && !continues(s, group, ru) {
			last := group[len(group)-1]
			flush()
			if continues(s, []run{last}, ru) {
				// last starts a run of another width (a line of base64
				// came before a block wrapped at 70): read it again with
				// the lines after it.
				group, n = append(group, last), last.end-last.start
			} else if short {
				continue
			}
		}
		// A line that starts inside a base64 quantum (after lines of 70
		// characters) is text only with the lines before it.
		if (len(group) == 0 || n%4 == 0) && !ru.text(s) {
			flush()
			fs = r.findHexWords(fs, s, ru, depth)
			continue
		}
		group, n = append(group, ru), n+ru.end-ru.start
	}
	flush()
	return fs
}

// findHexWords judges the hex words of a run that does not decode as a
// whole: a path or a name in base64's alphabet ("/memories/<hex>.md",
// "key_<hex>") can hold the hex of a secret between its '/', '+', '-' or
// '_'. A word of at least [minHex] digits there is read as hex alone.
func (r *Redactor) findHexWords(fs []span, s string, ru run, depth int) []span {
	for i := ru.start; i < ru.end; {
		if !isHexDigit(s[i]) || i > ru.start && isAlnum(s[i-1]) {
			i++
			continue
		}
		j := i
		for j < ru.end && isHexDigit(s[j]) {
			j++
		}
		word := j == ru.end || !isAlnum(s[j])
		whole := i == ru.start && j == ru.end // judged already, as the run
		if j-i >= minHex && word && !whole {
			fs = r.judgeRuns(fs, s, []run{{i, j}}, depth)
		}
		i = j + 1
	}
	return fs
}

// A run is a stretch of s in the alphabet of base64 or base64url, with
// its padding.
type run struct{ start, end int }

// nextRun returns the run that starts at i.
func nextRun(s string, i int) run {
	j := i
	for j < len(s) && isBase64Char(s[j]) {
		j++
	}
	return run{i, padded(s, j)}
}

// padded returns the end of a run whose characters end at j, past its
// '=' padding.
func padded(s string, j int) int {
	k := j
	for k < len(s) && k-j < 2 && s[k] == '=' {
		k++
	}
	if k < len(s) && isBase64Char(s[k]) {
		return j // the '=' of an assignment, not padding
	}
	return k
}

// text reports whether the run's first characters decode to text.
func (ru run) text(s string) bool {
	if !textLead(s[ru.start]) {
		return false
	}
	var src, dst [textPrefix]byte
	n := copy(src[:], s[ru.start:ru.end])
	_, ok := decode(dst[:0], src[:n], true)
	return ok
}

// textLead reports whether c can start the hex or base64 of text: the
// first byte of text is a tab, a line break, printable ASCII or the lead
// byte of a UTF-8 character, which leaves out most identifiers and paths
// (internal/…, node_modules, session_id) before anything is decoded.
func textLead(c byte) bool {
	switch {
	case '0' <= c && c <= '9', 'C' <= c && c <= 'F', 'I' <= c && c <= 'Z', 'a' <= c && c <= 'f', 'w' <= c && c <= 'z':
		return true
	}
	return false
}

// continues reports whether next is the next line of the wrapped run
// whose lines so far are group: the last has no padding, only a line
// break and indentation lie between them, and either the last fills whole
// base64 quanta or the lines are of one width, next no longer than they.
func continues(s string, group []run, next run) bool {
	prev := group[len(group)-1]
	if s[prev.end-1] == '=' {
		return false
	}
	between := s[prev.end:next.start]
	if strings.Count(between, "\n") != 1 || strings.Trim(between, " \t\r\n") != "" {
		return false
	}
	w := prev.end - prev.start
	return w%4 == 0 || w == group[0].end-group[0].start && next.end-next.start <= w
}

// judgeRuns adds a finding over the lines of group when the text they
// encode holds a secret. Lines that are not one wrapped run (a word
// before a base64 block, base64 strings one per line) can hide a secret
// when read as one, gluing it to its neighbour: each is then read alone.
func (r *Redactor) judgeRuns(fs []span, s string, group []run, depth int) []span {
	var b strings.Builder
	for _, ru := range group {
		if b.Len() >= maxDecoded/3*4 {
			break
		}
		b.WriteString(s[ru.start:ru.end])
	}
	if kind := r.encodedKind(b.String(), depth); kind != "" {
		return append(fs, span{group[0].start, group[len(group)-1].end, kind})
	}
	if len(group) == 1 {
		return fs
	}
	for _, ru := range group {
		if kind := r.encodedKind(s[ru.start:ru.end], depth); kind != "" {
			fs = append(fs, span{ru.start, ru.end, kind})
		}
	}
	return fs
}

// encodedKind returns the kind of the most specific secret in the text
// enc encodes, or "".
func (r *Redactor) encodedKind(enc string, depth int) string {
	text, ok := decode(nil, []byte(enc), false)
	if !ok {
		return ""
	}
	return secretKind(r.findIn(string(text), depth+1))
}

// secretKind returns the most specific kind among fs, <private> spans
// aside (an encoded tag is no span a person marked), or "".
func secretKind(fs []span) string {
	kind := ""
	for _, f := range fs {
		if f.kind != KindPrivate && (kind == "" || priority(f.kind) > priority(kind)) {
			kind = f.kind
		}
	}
	return kind
}

// decode appends to dst the text v encodes as hex (with or without 0x)
// or as base64 in the standard or URL alphabet, padded or not, at most
// maxDecoded bytes of it; false when v is none of them or decodes to
// something other than text. A prefix of a run may end inside a
// character: partial allows that. dst needs room for what v encodes.
func decode(dst, v []byte, partial bool) ([]byte, bool) {
	h := bytes.TrimPrefix(v, []byte("0x"))
	allHex, std, url := true, false, false // which characters v holds
	for _, c := range v {
		switch {
		case c == '+' || c == '/':
			std = true
		case c == '-' || c == '_':
			url = true
		}
		allHex = allHex && (isHexDigit(c) || c == 'x')
	}
	if allHex && len(h) >= minHex && bytes.IndexByte(h, 'x') < 0 {
		if len(h)%2 == 1 && !partial {
			return nil, false // an odd digit out: no bytes
		}
		h = h[:min(len(h)/2*2, 2*maxDecoded)]
		dst = slices.Grow(dst, len(h)/2)[:len(h)/2]
		n, err := hex.Decode(dst, h)
		return dst[:n], err == nil && isText(dst[:n], partial)
	}
	if std && url {
		return nil, false // both alphabets: a path or a name, not base64
	}
	v = bytes.TrimRight(v, "=")
	if len(v) > maxDecoded/3*4 {
		v = v[:maxDecoded/3*4]
	}
	if partial {
		v = v[:len(v)/4*4]
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	dst = slices.Grow(dst, enc.DecodedLen(len(v)))[:enc.DecodedLen(len(v))]
	n, err := enc.Decode(dst, v)
	return dst[:n], err == nil && n > 0 && isText(dst[:n], partial)
}

// isText reports whether b is UTF-8 text: no control characters but tab,
// line feed and carriage return. When partial, b may end inside a
// character.
func isText(b []byte, partial bool) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return partial && !utf8.FullRune(b[i:])
		}
		i += n
	}
	return true
}

// isBase64Char reports whether c is in the alphabet of base64 or
// base64url.
func isBase64Char(c byte) bool {
	if c < 64 {
		return base64Low>>c&1 != 0
	}
	return c < 128 && base64High>>(c-64)&1 != 0
}

// newBase64Table marks the characters of [isBase64Char], for the scan of
// [Redactor.findEncoded], which a table makes faster.
func newBase64Table() *[256]bool {
	var t [256]bool
	for c := range t {
		t[c] = isBase64Char(byte(c))
	}
	return &t
}

// base64Low and base64High are the bits of the characters of base64 and
// base64url below 64 and from 64 to 127, for [isBase64Char].
const (
	base64Low  = 1<<'+' | 1<<'-' | 1<<'/' | (1<<10-1)<<'0'
	base64High = (1<<26-1)<<('A'-64) | 1<<('_'-64) | (1<<26-1)<<('a'-64)
)

// findBasic finds the credentials of an HTTP Basic header, "Basic "
// then the base64 of user:password, in any text: a curl command line, a
// log, a header given alone.
func findBasic(fs []span, s, lower string) []span {
	for i := 0; ; {
		j := strings.Index(lower[i:], "basic ")
		if j < 0 {
			return fs
		}
		j += i
		i = j + len("basic ")
		if j > 0 && isAlnum(lower[j-1]) {
			continue
		}
		k := skipSpaces(s, i)
		ru := nextRun(s, k)
		if ru.end-k < 8 {
			continue
		}
		if b, ok := decode(nil, []byte(s[k:ru.end]), false); ok {
			text := string(b)
			c := strings.IndexByte(text, ':')
			if c >= 0 && c < len(text)-1 && !strings.ContainsAny(text, " \t\r\n") && !placeholder(text[c+1:]) {
				fs = append(fs, span{k, ru.end, KindPassword})
			}
		}
	}
}
