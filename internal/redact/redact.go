package redact

import (
	"slices"
	"strings"
)

// Kinds of findings, as written in the "[REDACTED:kind]" that replaces them.
const (
	KindPrivate     = "private"      // a <private>…</private> span
	KindPrivateKey  = "private-key"  // a PEM private key block, or a value named private_key
	KindURLPassword = "url-password" // the password of scheme://user:password@host
	KindPassword    = "password"     // the value of a field named like a password
	KindToken       = "token"        // the value of a field named like a token, or a Bearer token
	KindAPIKey      = "api-key"      // the value of a field named like an API key
	KindSecret      = "secret"       // the value of another field named like a secret, or a literal
	KindJWT         = "jwt"          // a JSON Web Token
	KindHighEntropy = "high-entropy" // a long random-looking token
)

// A Finding is a stretch of text a [Redactor] removes: its kind and where
// it is. It never holds the text itself, so it can be shown, logged and
// returned to a caller that must not see the secret.
type Finding struct {
	Kind         string // one of the Kind constants or a provider kind such as "github-token"
	Start, End   int    // byte offsets into the text
	Line, Column int    // of Start, 1-based; Column counts bytes
}

// A span is a stretch of text to redact, as the scanners find it.
type span struct {
	start, end int
	kind       string
}

// Options tune a [Redactor]. The zero value is the default.
type Options struct {
	// Literals are exact strings that are always redacted (kind "secret"),
	// such as the values of the API keys mnemo itself was given. Literals
	// shorter than 8 bytes are ignored: they would redact ordinary words.
	Literals []string

	// NoEntropy turns off the high-entropy rule, leaving only the named
	// patterns.
	NoEntropy bool
}

// A Redactor finds secrets in text and replaces each with
// "[REDACTED:kind]". It holds no mutable state: a Redactor is safe for
// concurrent use.
type Redactor struct {
	literals  []string
	entropy   bool
	bigrams   *bigramTable
	providers *providerIndex
	nouns     *nounIndex
	base64    *[256]bool // the characters of base64 and base64url
	maxDepth  int        // encodings inside each other undone: [maxDepth], or fewer in a benchmark
}

// New returns a Redactor.
func New(opts Options) *Redactor {
	r := &Redactor{entropy: !opts.NoEntropy, bigrams: newBigramTable(), providers: newProviderIndex(), nouns: newNounIndex(),
		base64: newBase64Table(), maxDepth: maxDepth}
	for _, l := range opts.Literals {
		if len(l) >= 8 {
			r.literals = append(r.literals, l)
		}
	}
	return r
}

// String returns s with every finding replaced by "[REDACTED:kind]".
// Redacting its output again changes nothing: a replacement can change the
// context of its neighbours (a token split in two, a name now beside a
// marker), so String repeats until a pass finds nothing. Each pass removes
// text that is not a marker, so this ends; in practice the second pass
// finds nothing.
func (r *Redactor) String(s string) string {
	for range maxPasses {
		fs := r.find(s)
		if len(fs) == 0 {
			break
		}
		s = replace(s, fs)
	}
	return s
}

// maxPasses bounds the passes of [Redactor.String].
const maxPasses = 4

// The marker that replaces a finding: markerStart, its kind, markerEnd.
const (
	markerStart = "[REDACTED:"
	markerEnd   = "]"
)

// replace writes s with each finding replaced by its marker.
func replace(s string, fs []span) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := 0
	for _, f := range fs {
		b.WriteString(s[prev:f.start])
		b.WriteString(markerStart)
		b.WriteString(f.kind)
		b.WriteString(markerEnd)
		prev = f.end
	}
	b.WriteString(s[prev:])
	return b.String()
}

// Unmarked returns s without the markers [Redactor.String] leaves, each
// replaced by a space: for what is made of a text's words (a memory's
// name), where "redacted" and a kind are no word of the text.
func Unmarked(s string) string {
	for {
		i := strings.Index(s, markerStart)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], markerEnd)
		if j < 0 {
			return s
		}
		s = s[:i] + " " + s[i+j+len(markerEnd):]
	}
}

// Find returns what one pass of [Redactor.String] removes from s, sorted
// and not overlapping, <private> spans included. String may find more in
// the text that pass leaves.
func (r *Redactor) Find(s string) []Finding {
	return located(s, r.find(s))
}

// find is [Redactor.Find] without the lines and columns.
func (r *Redactor) find(s string) []span { return r.findIn(s, 0) }

// findIn finds the secrets of s, which depth encodings have been undone
// to reach: the runs and escapes of s are decoded and read again while
// depth is below r.maxDepth.
func (r *Redactor) findIn(s string, depth int) []span {
	var fs []span
	lower := asciiLower(s)
	fs = findPrivate(fs, s, lower)
	fs = findPEM(fs, s)
	fs = findURLPasswords(fs, s)
	fs = findAssignments(fs, s, lower)
	fs = findCommandPasswords(fs, s)
	fs = findBearer(fs, s, lower)
	fs = findBasic(fs, s, lower)
	fs = findProse(fs, s, lower, r)
	fs = r.findTokens(fs, s)
	for _, l := range r.literals {
		for i := 0; ; {
			j := strings.Index(s[i:], l)
			if j < 0 {
				break
			}
			fs = append(fs, span{i + j, i + j + len(l), KindSecret})
			i += j + len(l)
		}
	}
	if depth < r.maxDepth {
		fs = r.findEncoded(fs, s, depth)
		fs = r.findEscaped(fs, s, depth)
	}
	fs = r.joinSplit(fs, s)
	return merge(dropPublic(fs, s))
}

// located gives each span its line and column in s; fs is sorted.
func located(s string, fs []span) []Finding {
	if len(fs) == 0 {
		return nil
	}
	out := make([]Finding, len(fs))
	line, lineStart, at := 1, 0, 0
	for i, f := range fs {
		for ; at < f.start; at++ {
			if s[at] == '\n' {
				line, lineStart = line+1, at+1
			}
		}
		out[i] = Finding{Kind: f.kind, Start: f.start, End: f.end, Line: line, Column: f.start - lineStart + 1}
	}
	return out
}

// dropPublic removes high-entropy findings inside PEM certificates and
// public keys.
func dropPublic(fs []span, s string) []span {
	var spans [][2]int
	if strings.Contains(s, "-----BEGIN ") {
		spans = publicBlocks(s)
	}
	return slices.DeleteFunc(fs, func(f span) bool {
		if f.kind != KindHighEntropy {
			return false
		}
		for _, sp := range spans {
			if sp[0] <= f.start && f.end <= sp[1] {
				return true
			}
		}
		return false
	})
}

// sshPublicKey reports whether the token at i follows an SSH public key's
// algorithm name, as in authorized_keys and known_hosts.
func sshPublicKey(s string, i int) bool {
	head := s[max(0, i-24):i]
	for _, alg := range [...]string{"ssh-rsa ", "ssh-ed25519 ", "ssh-dss ", "ecdsa-sha2-nistp256 ",
		"ecdsa-sha2-nistp384 ", "ecdsa-sha2-nistp521 ", "sk-ssh-ed25519@openssh.com "} {
		if strings.HasSuffix(head, alg) {
			return true
		}
	}
	return false
}

// priority ranks kinds when findings overlap: the most specific name wins.
func priority(kind string) int {
	switch kind {
	case KindPrivate:
		return 7
	case KindPrivateKey:
		return 6
	case KindURLPassword:
		return 4
	case KindPassword, KindToken, KindAPIKey:
		return 3
	case KindSecret:
		return 2
	case KindHighEntropy:
		return 1
	}
	return 5 // provider kinds and jwt
}

// merge sorts findings and joins overlapping ones into their union, named
// by the highest-priority kind among them.
func merge(fs []span) []span {
	if len(fs) < 2 {
		return fs
	}
	slices.SortFunc(fs, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	out := fs[:1]
	for _, f := range fs[1:] {
		last := &out[len(out)-1]
		if f.start >= last.end {
			out = append(out, f)
			continue
		}
		if f.end > last.end {
			last.end = f.end
		}
		if priority(f.kind) > priority(last.kind) {
			last.kind = f.kind
		}
	}
	return out
}

// asciiLower lowercases ASCII letters only, so byte offsets in the result
// are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// redacted reports whether v starts with a redaction marker, so a second
// pass leaves it alone.
func redacted(v string) bool { return strings.HasPrefix(v, "[REDACTED:") }
