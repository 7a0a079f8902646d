package redact

import (
	"math"
	"strings"
)

// isTokenChar reports whether c can be part of a credential-like token:
// letters, digits and the symbols of base64, base64url, JWTs and paths.
// '=' is not, so KEY=value splits in two; trailing '=' padding is added back.
func isTokenChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '.' || c == '~'
}

// findTokens scans s once for tokens and classifies each: a provider
// credential, a JWT, or (when entropy is set) a random-looking string.
func (r *Redactor) findTokens(fs []span, s string) []span {
	for i := 0; i < len(s); {
		if !isTokenChar(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isTokenChar(s[j]) {
			j++
		}
		for j < len(s) && s[j] == '=' && j-i > 0 && (j+1 >= len(s) || !isTokenChar(s[j+1])) {
			j++ // base64 padding, not an assignment
		}
		fs = r.classify(fs, s, i, j)
		fs = r.joinPrefixed(fs, s, i, j)
		i = j
	}
	return fs
}

// classify adds the findings of the token s[start:end]. Decisions look
// at the token without its '=' padding, since whether '=' is padding
// depends on the next character, which redaction may change; a finding
// that reaches the end of the token takes the padding with it.
func (r *Redactor) classify(fs []span, s string, start, end int) []span {
	tok, origin := strings.TrimRight(s[start:end], "="), start
	padEnd := end
	if len(tok) < 20 {
		return fs
	}
	// Leading and trailing punctuation belongs to the sentence or path.
	for len(tok) > 0 && strings.IndexByte("/.-+~", tok[0]) >= 0 {
		tok, start = tok[1:], start+1
	}
	if t := strings.TrimRight(tok, "."); isJWT(t) {
		return append(fs, span{start, start + len(t), KindJWT})
	}
	if t := strings.TrimRight(tok, "/.-+~"); len(t) < len(tok) {
		tok, padEnd = t, start+len(t) // trailing punctuation ends the token
	}
	spanEnd := func(e int) int {
		if e == start+len(tok) {
			return padEnd
		}
		return e
	}
	if kind := r.providers.kind(tok); kind != "" {
		return append(fs, span{start, spanEnd(start + len(tok)), kind})
	}
	if lockfileHash(s, origin, tok) || dataURI(s, origin) || idPrefix(tok) || sshPublicKey(s, origin) {
		return fs
	}
	// A credential may sit inside a longer token: after a path segment or
	// a dot (https://x/ghp_…, key.sk-ant-…). Standard base64 uses '/', so
	// each dot-separated segment holding '/' is also judged whole (an AWS
	// secret key); paths, mostly lower case, are judged by part.
	for off := 0; off < len(tok); {
		k := strings.IndexByte(tok[off:], '.')
		seg := tok[off:]
		if k >= 0 {
			seg = tok[off : off+k]
		}
		if r.entropy && strings.Contains(seg, "/") && mixedCase(seg) && r.looksRandom(seg) {
			fs = append(fs, span{start + off, spanEnd(start + off + len(seg)), KindHighEntropy})
		}
		if k < 0 {
			break
		}
		off += k + 1
	}
	for off := 0; off < len(tok); {
		k := strings.IndexAny(tok[off:], "./")
		part := tok[off:]
		if k >= 0 {
			part = tok[off : off+k]
		}
		e := spanEnd(start + off + len(part))
		switch {
		case off > 0 && r.providers.kind(part) != "":
			fs = append(fs, span{start + off, e, r.providers.kind(part)})
		case r.entropy && r.looksRandom(part):
			fs = append(fs, span{start + off, e, KindHighEntropy})
		}
		if k < 0 {
			break
		}
		off += k + 1
	}
	return fs
}

// lockfileHash reports whether the token at start is a checksum of a
// lockfile or an integrity attribute: sha512-…, sha256-… (npm, yarn, pnpm),
// h1:… (go.sum). Checksums are public.
func lockfileHash(s string, start int, tok string) bool {
	for _, p := range [...]string{"sha1-", "sha256-", "sha384-", "sha512-", "md5-"} {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	return start >= 3 && (s[start-3:start] == "h1:" || s[start-3:start] == "h2:")
}

// dataURI reports whether the token at start is the payload of a base64
// data: URI of an image, font, audio or video. Such payloads are media, not
// credentials, and are kept (mnemo's digests never carry image bytes).
func dataURI(s string, start int) bool {
	if start < 7 || s[start-7:start] != ";base64," {
		return false
	}
	head := s[max(0, start-120) : start-7]
	i := strings.LastIndex(head, "data:")
	if i < 0 {
		return false
	}
	mt := head[i+5:]
	for _, p := range [...]string{"image/", "font/", "audio/", "video/"} {
		if strings.HasPrefix(mt, p) {
			return true
		}
	}
	return false
}

// commonBigrams are the letter pairs most frequent in English text and
// code identifiers. Words and identifiers are mostly made of them; random
// strings are not.
const commonBigrams = "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se " +
	"ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di " +
	"fo ho pe ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt " +
	"po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe " +
	"bl ab gh ty op wo sa ay ex ke fr oo av ag if ap gr od bo sp rd do uc bu ei ov by rm ep tt oc " +
	"fa ef cu rn sc gi da yo cr cl du ga qu ue ff ba ey ls va um pp ua up lu go ht ru ug ds lt pi " +
	"rc rr eg au ck ew mu br bi pt ak pu ui rg ib tl ny ki rk ys ob mm fu ph og ms ye ud mb ip ub " +
	"oi rl gu dr hr cc tw ft wn nu af hu nn eo vo rv nf xp gn sm fl iz ok nl my gl aw sy oa"

// bigramTable marks the common bigrams, indexed by 26*first+second.
type bigramTable [26 * 26]bool

func newBigramTable() *bigramTable {
	var t bigramTable
	for i := 0; i+1 < len(commonBigrams); i += 3 {
		t[int(commonBigrams[i]-'a')*26+int(commonBigrams[i+1]-'a')] = true
	}
	return &t
}

// wordLike reports whether most letter pairs of t (within words: lower
// after lower or upper, upper after upper) are common bigrams, as in
// identifiers, paths and prose.
func (bt *bigramTable) wordLike(t string) bool {
	pairs, common := 0, 0
	for i := 1; i < len(t); i++ {
		a, b := t[i-1], t[i]
		aLower, aUpper := 'a' <= a && a <= 'z', 'A' <= a && a <= 'Z'
		bLower, bUpper := 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z'
		if !(bLower && (aLower || aUpper) || bUpper && aUpper) {
			continue
		}
		pairs++
		if bt[int((a|0x20)-'a')*26+int((b|0x20)-'a')] {
			common++
		}
	}
	return pairs >= 6 && common*10 >= pairs*7
}

// looksRandom reports whether a token is a random-looking string: at least
// 20 characters mixing letters and digits, of high Shannon entropy for its
// length and alphabet, switching often between character classes, and not
// made of the common letter pairs of words. Hexadecimal strings (hashes,
// commit ids, UUIDs) never are: a hex secret is caught by its name instead.
func (r *Redactor) looksRandom(t string) bool {
	n := len(t)
	if n < 20 {
		return false
	}
	var lower, upper, digit, hex, other, switches int
	var counts [256]int
	prev := 0
	for i := 0; i < n; i++ {
		c := t[i]
		counts[c]++
		class := 4
		switch {
		case 'a' <= c && c <= 'z':
			lower, class = lower+1, 1
		case 'A' <= c && c <= 'Z':
			upper, class = upper+1, 2
		case '0' <= c && c <= '9':
			digit, class = digit+1, 3
		default:
			other++
		}
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' || c == '-' {
			hex++
		}
		if i > 0 && class != prev {
			switches++
		}
		prev = class
	}
	if hex == n || digit == 0 || lower+upper == 0 {
		return false
	}
	if float64(switches)/float64(n-1) < 0.3 || r.bigrams.wordLike(t) || segmentedName(t) {
		return false
	}
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	alphabet := 10
	if lower > 0 {
		alphabet += 26
	}
	if upper > 0 {
		alphabet += 26
	}
	if other > 0 {
		alphabet += 4
	}
	// The entropy a random string of this length over this alphabet nears.
	ideal := math.Log2(float64(min(n, alphabet)))
	return h >= 0.8*ideal
}

// segmentedName reports whether t is three or more parts joined by - _ +
// or /, none mixing upper and lower case: a package, build or constant
// name (next+swc-darwin-arm64, TLS_RSA_WITH_AES_128). Random strings
// rarely hold two separators, and their parts mix cases.
func segmentedName(t string) bool {
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '-' || r == '_' || r == '+' || r == '/' })
	if len(parts) < 3 {
		return false
	}
	for _, p := range parts {
		if mixedCase(p) {
			return false
		}
	}
	return true
}

// idPrefixes start the ids of API objects (Anthropic messages and tool
// calls, OpenAI responses, Stripe objects): random, but not secrets.
func idPrefix(tok string) bool {
	for _, p := range [...]string{"msg_", "toolu_", "srvtoolu_", "req_", "call_", "chatcmpl-", "resp_",
		"run_", "thread_", "asst_", "batch_", "file-", "cus_", "pi_", "ch_", "evt_", "sub_", "prod_",
		"price_", "txn_", "acct_", "seti_", "pm_", "agent_msg_"} {
		if strings.HasPrefix(tok, p) {
			return true
		}
	}
	return false
}

// findBearer finds the credential after "Bearer " in any text, such as a
// curl command line.
func findBearer(fs []span, s, lower string) []span {
	for i := 0; ; {
		j := strings.Index(lower[i:], "bearer ")
		if j < 0 {
			return fs
		}
		j += i
		i = j + 7
		if j > 0 && isAlnum(lower[j-1]) {
			continue
		}
		k := skipSpaces(s, i)
		e := k
		for e < len(s) && (isTokenChar(s[e]) || s[e] == '=') {
			e++
		}
		// An '=' inside (not padding) makes it an assignment: AUTH=bearer MODEL=x.
		if v := s[k:e]; len(v) >= 16 && !strings.Contains(strings.TrimRight(v, "="), "=") && !placeholder(v) && !redacted(v) {
			fs = append(fs, span{k, e, KindToken})
		}
	}
}

func mixedCase(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return 'a' <= r && r <= 'z' }) &&
		strings.ContainsFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' })
}
