package redact

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// A noun is a word that names a secret in prose.
type noun struct {
	word string // as it appears in the text lower-cased by [asciiLower]
	kind string // KindPassword, KindToken, KindSecret; "" for a generic key, named by the word before it
	cjk  bool   // written without spaces around it: no word boundaries, no words between it and its connector
}

// proseNouns lists the words that name a secret, in the languages mnemo's
// users write to agents. Non-ASCII words are listed in each case they are
// written in, since only ASCII letters are lower-cased.
func proseNouns() []noun {
	var ns []noun
	add := func(kind string, cjk bool, words ...string) {
		for _, w := range words {
			ns = append(ns, noun{word: w, kind: kind, cjk: cjk})
		}
	}
	add(KindPassword, false, "password", "passwd", "passphrase", "passcode", "pw", "pwd",
		"passwort", "kennwort", "mot de passe", "contraseña", "contrasena", "senha", "wachtwoord",
		"hasło", "haslo", "lösenord", "losenord", "adgangskode", "passord", "salasana", "şifre",
		"sifre", "heslo", "jelszó", "jelszo", "mật khẩu", "kata sandi", "пароль", "Пароль", "ПАРОЛЬ")
	add(KindPassword, true, "密码", "密碼", "パスワード", "비밀번호")
	add(KindSecret, false, "secret", "credential", "credentials")
	add(KindToken, false, "token")
	add(KindToken, true, "トークン", "토큰", "令牌")
	add("", false, "key", "apikey", "schlüssel", "clé", "clave", "chave", "ключ", "Ключ")
	add("", true, "密钥", "秘密鍵")
	return ns
}

// findProse finds secrets stated in prose: a word that names one, at most
// a few words, a connector (is, was, :, =, →, ist, est, es, 是, は, 는, and
// the French " : ") and the value:
//
//	the admin password for the staging dashboard is Tr0ub4dor&24464
//	root pw: Hx9!kq27z        passphrase: "correct horse battery staple"
//	Le mot de passe du wiki : Zq8#rT4vLm        パスワードは Zq8#rT4vLm
//
// A value that reads as a word, a number with a unit, a version, a path,
// an e-mail address or code is not one. Right after a word that names a
// key or token, a long hex or random string is a value without a
// connector (signing key 9f86d08…); a word between them that describes
// the key instead (commit, hash, fingerprint, id, length…) ends the search,
// and so does a qualifier before it that makes it public or structural
// (public key, cache key, primary key).
func findProse(fs []span, s, lower string, r *Redactor) []span {
	idx := r.nouns
	for i := 0; i+1 < len(lower); i++ {
		c := lower[i]
		if !idx.lead[c] {
			continue
		}
		if i > 0 {
			// Inside a word, or part of an identifier (db_password,
			// config.token: findAssignments' matter).
			if p := lower[i-1]; p == '_' || p == '.' || c < utf8.RuneSelf && isAlnum(p) {
				continue
			}
		}
		if d := lower[i+1]; idx.second[c][d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		for _, n := range idx.first[c] {
			end := i + len(n.word)
			if !strings.HasPrefix(lower[i:], n.word) || !n.cjk && !wordAt(lower, i, end) {
				continue
			}
			kind := n.kind
			if kind == "" || kind == KindToken {
				q := qualifier(lower, i)
				if structuralQualifier(q, kind) {
					break
				}
				if kind == "" {
					kind = keyKind(q, n.word)
				}
			}
			if sp, ok := r.proseValue(s, lower, end, kind, n.cjk); ok {
				fs = append(fs, sp)
			}
			break
		}
	}
	return fs
}

// A nounIndex holds the nouns by their first byte, longest first, and
// marks the bytes that can follow each first byte, so that the scan
// passes most positions after two table lookups.
type nounIndex struct {
	lead   [256]bool // the first bytes of nouns
	first  [256][]noun
	second [256][4]uint64 // a bit for each second byte
}

func newNounIndex() *nounIndex {
	var idx nounIndex
	for _, n := range proseNouns() {
		c, d := n.word[0], n.word[1]
		idx.lead[c] = true
		idx.first[c] = append(idx.first[c], n)
		idx.second[c][d>>6] |= 1 << (d & 63)
	}
	for _, ns := range idx.first {
		slices.SortStableFunc(ns, func(a, b noun) int { return len(b.word) - len(a.word) })
	}
	return &idx
}

// wordAt reports whether lower[i:j] is a whole word: not inside an
// identifier such as password_length, token-bucket or mykey.
func wordAt(lower string, i, j int) bool {
	if i > 0 && (isAlnum(lower[i-1]) || lower[i-1] >= utf8.RuneSelf && !spaceRuneBefore(lower, i)) {
		return false
	}
	if j < len(lower) {
		c := lower[j]
		if isAlnum(c) || c == '_' || c == '-' || c >= utf8.RuneSelf && !punctRuneAt(lower, j) {
			return false
		}
		if c == '.' && j+1 < len(lower) && isAlnum(lower[j+1]) {
			return false // password.txt, token.value
		}
	}
	return true
}

// spaceRuneBefore reports whether the rune ending at i is a space or
// punctuation (a non-breaking or ideographic space, a quote).
func spaceRuneBefore(s string, i int) bool {
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r == '\u00a0' || r == '\u3000' || r == '“' || r == '‘' || r == '«' || r == '„' || r == '「'
}

// punctRuneAt reports whether the rune at i ends a word: CJK punctuation,
// a fullwidth colon, a closing quote.
func punctRuneAt(s string, i int) bool {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return endsValue(r) || r == '\u00a0' || r == '→' || r == '—' || r == '–'
}

// qualifier returns the word before the one at i (api in "api key",
// "api_key", "API-Key"), lower-cased, or "".
func qualifier(lower string, i int) string {
	j := i
	for j > 0 && (lower[j-1] == ' ' || lower[j-1] == '_' || lower[j-1] == '-') && i-j < 2 {
		j--
	}
	k := j
	for k > 0 && isAlnum(lower[k-1]) {
		k--
	}
	return lower[k:j]
}

// structuralQualifier reports whether the word before "key" or "token"
// makes it something other than a secret: public key, cache key, primary
// key, max token, input token.
func structuralQualifier(q, kind string) bool {
	if kind == KindToken {
		switch q {
		case "max", "input", "output", "prompt", "completion", "special", "eos", "bos", "pad", "unk",
			"lexer", "parser", "syntax", "design", "css", "next", "first", "last", "each", "per":
			return true
		}
		return false
	}
	switch q {
	case "public", "primary", "foreign", "sort", "partition", "cache", "map", "lookup", "dedup", "dedupe",
		"idempotency", "hash", "composite", "unique", "row", "object", "host", "hot", "translation", "i18n",
		"message", "config", "registry", "dictionary", "json", "yaml", "s3", "shortcut", "music",
		"index", "group", "routing", "shard",
		"distribution", "join", "natural", "surrogate", "candidate", "super", "compound":
		return true
	}
	return false
}

// keyKind is the kind of secret a key word names, given the word before it.
func keyKind(q, word string) string {
	switch {
	case word == "apikey", q == "api":
		return KindAPIKey
	case q == "private":
		return KindPrivateKey
	}
	return KindSecret
}

// maxGapWords bounds the words between a noun and its connector (the admin
// password for the staging dashboard is …), maxBareGap those between a key
// word and a value given without a connector (signing key for staging …).
const (
	maxGapWords = 6
	maxBareGap  = 3
)

// proseValue returns the value stated after the noun ending at i.
func (r *Redactor) proseValue(s, lower string, i int, kind string, cjk bool) (span, bool) {
	for words := 0; ; words++ {
		i = skipProseSpaces(s, i)
		if i >= len(s) || s[i] == '\n' || s[i] == '\r' {
			return span{}, false
		}
		q, verb := connector(s, lower, i)
		if q >= 0 {
			if sp, ok := r.valueAt(s, skipFillers(s, lower, q), kind); ok || !verb {
				return sp, ok
			}
			// "the password on staging is …": a verb that was not the connector
		}
		if words <= maxBareGap {
			if sp, ok := r.strongAt(s, i, kind); ok {
				return sp, true
			}
		}
		if words == maxGapWords || cjk {
			return span{}, false
		}
		j := i
		for j < len(s) && (isAlnum(s[j]) || s[j] == '_' || s[j] == '-' || s[j] == '\'' ||
			s[j] >= utf8.RuneSelf && !punctRuneAt(s, j) && !spaceRuneAt(s, j)) {
			j++
		}
		if j == i || stopWord(lower[i:j]) {
			return span{}, false // punctuation, the end of a sentence, or a word that describes the secret
		}
		i = j
	}
}

func skipProseSpaces(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == ' ' || s[i] == '\t':
			i++
		case spaceRuneAt(s, i):
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
		default:
			return i
		}
	}
	return i
}

func spaceRuneAt(s string, i int) bool {
	if s[i] < utf8.RuneSelf {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r == '\u00a0' || r == '\u3000' || r == '\u202f'
}

// stopWord reports whether a word between a noun and its value says the
// sentence is about the secret, not its value: password_length, the token
// count, the key commit, the password must…
func stopWord(w string) bool {
	w = strings.Trim(w, "-_.")
	if describesSecret(w) {
		return true
	}
	switch w {
	case "reset", "resets", "hash", "hashes", "hashed", "hashing", "rotation", "rotated", "manager",
		"strength", "complexity", "requirement", "requirements", "rule", "rules", "length", "page",
		"screen", "form", "dialog", "box", "storage", "protected", "protection", "less", "change",
		"changes", "must", "should", "will", "would", "can", "cannot", "could", "may", "might", "needs",
		"need", "has", "have", "had", "does", "did", "do", "expired", "expires", "lives", "stays",
		"commit", "commits", "sha", "sha1", "sha256", "digest", "checksum", "fingerprint", "rev",
		"revision", "blob", "tree", "head", "tag", "branch", "merge", "build", "uuid", "guid", "not",
		"never", "isn't", "wasn't", "goes", "go", "comes", "sits", "lies", "belongs":
		return true
	}
	return false
}

// connector returns where the value after a connector at i starts, or
// -1, and whether the connector is a verb. Connectors are punctuation
// (: = => -> → — and the fullwidth colon), a verb (is, was, are, ist,
// lautet, est, es, é, è, är, set to, changed to) or a CJK particle (是,
// 为, は, が, 는, 은).
func connector(s, lower string, i int) (int, bool) {
	switch c := s[i]; {
	case c == ':':
		if strings.HasPrefix(s[i:], "::") || strings.HasPrefix(s[i:], ":/") {
			return -1, false
		}
		return i + 1, false
	case c == '=':
		if strings.HasPrefix(s[i:], "==") {
			return -1, false
		}
		if strings.HasPrefix(s[i:], "=>") {
			return i + 2, false
		}
		return i + 1, false
	case strings.HasPrefix(s[i:], "->"):
		return i + 2, false
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '：', '→', '—', '–', '是', '为', '為', 'は', 'が', '는', '은':
			q := i + n
			if q < len(s) && s[q] == ':' {
				q++
			} else if strings.HasPrefix(s[q:], "：") {
				q += len("：")
			}
			return q, false
		}
	}
	if strings.IndexByte("iwaeslcrj\xc3", lower[i]) < 0 {
		return -1, false // no verb starts so
	}
	for _, v := range [...]string{"is set to", "was set to", "is changed to", "was changed to", "changed to",
		"set to", "reset to", "rotated to", "is", "was", "are", "were", "equals", "ist", "lautet", "est",
		"es", "é", "è", "är", "er", "je", "jest"} {
		if strings.HasPrefix(lower[i:], v) {
			j := i + len(v)
			if j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == ':') {
				if s[j] == ':' {
					j++
				}
				return j, true
			}
		}
	}
	return -1, false
}

// skipFillers moves past spaces and the words that may stand between a
// connector and the value: "is now X", "is still X", "is just X".
func skipFillers(s, lower string, i int) int {
	for range 2 {
		i = skipProseSpaces(s, i)
		moved := false
		for _, w := range [...]string{"now", "still", "just", "simply", "literally", "actually", "currently", "always"} {
			if strings.HasPrefix(lower[i:], w) && i+len(w) < len(s) && s[i+len(w)] == ' ' {
				i, moved = i+len(w), true
				break
			}
		}
		if !moved {
			break
		}
	}
	return skipProseSpaces(s, i)
}
