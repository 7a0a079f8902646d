package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a value stated in prose must look like to be taken for a secret.

// quotePairs pairs opening quotes with the closing ones they take.
var quotePairs = [...][2]string{
	{`"`, `"`}, {`"`, `”`}, {`'`, `'`}, {`'`, `’`}, {"`", "`"}, {`“`, `”`}, {`“`, `“`}, {`‘`, `’`},
	{`«`, `»`}, {`„`, `“`}, {`„`, `”`}, {`「`, `」`}, {`『`, `』`}, {`‹`, `›`},
}

// valueAt returns the value at i, quoted or bare, if it is a secret of
// the kind.
func (r *Redactor) valueAt(s string, i int, kind string) (span, bool) {
	if i >= len(s) {
		return span{}, false
	}
	for _, q := range quotePairs {
		if !strings.HasPrefix(s[i:], q[0]) {
			continue
		}
		vs := i + len(q[0])
		line := s[vs:min(len(s), vs+maxQuoted)]
		if k := strings.IndexByte(line, '\n'); k >= 0 {
			line = line[:k]
		}
		if e := strings.Index(line, q[1]); e > 0 {
			if r.quotedSecret(s[vs:vs+e], kind) {
				return span{vs, vs + e, kind}, true
			}
			return span{}, false
		}
	}
	j := i
	for j < len(s) {
		c := s[j]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '&' && (queryParam(s[j+1:]) || htmlEntity(s[j+1:])) ||
			c == '\\' && j+1 < len(s) && strings.IndexByte(`nrt"'`, s[j+1]) >= 0 {
			break // a space, the next query parameter, an escape in a string of code
		}
		if c >= utf8.RuneSelf {
			if rn, _ := utf8.DecodeRuneInString(s[j:]); endsValue(rn) || rn == '\u00a0' || rn == '\u3000' {
				break
			}
		}
		j++
	}
	v := strings.TrimRight(s[i:j], ".,;:!?")
	if placeholder(v) {
		return span{}, false
	}
	v = strings.TrimRight(v, ")]}>\"'`")
	if v == "" || !r.bareSecret(v, kind) {
		return span{}, false
	}
	return span{i, i + len(v), kind}, true
}

// queryParam reports whether s starts with a query parameter, name=, as
// after the '&' that ends a value in a URL.
func queryParam(s string) bool {
	i := 0
	for i < len(s) && (isAlnum(s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.') {
		i++
	}
	return i > 0 && i < len(s) && s[i] == '='
}

// htmlEntity reports whether s starts with the rest of an HTML entity
// after its '&': quot;, #x3C;.
func htmlEntity(s string) bool {
	i := 0
	for i < len(s) && i < 8 && (isAlnum(s[i]) || s[i] == '#') {
		i++
	}
	return i > 1 && i < len(s) && s[i] == ';'
}

// maxQuoted bounds a quoted value in prose.
const maxQuoted = 256

// endsValue reports whether r ends a value written without spaces: CJK
// punctuation and closing quotes.
func endsValue(r rune) bool {
	switch r {
	case '，', '。', '、', '；', '：', '！', '？', '）', '」', '』', '】', '”', '’', '»', '›':
		return true
	}
	return false
}

// strongAt returns the token at i if it is a key by its looks alone: a
// provider's credential, 32 or more hex digits, or a random-looking string.
func (r *Redactor) strongAt(s string, i int, kind string) (span, bool) {
	j := i
	for j < len(s) && (isTokenChar(s[j]) || s[j] == '=') {
		j++
	}
	v := strings.TrimRight(s[i:j], ".-")
	if !r.strongValue(v) {
		return span{}, false
	}
	return span{i, i + len(v), kind}, true
}

func (r *Redactor) strongValue(v string) bool {
	return r.providers.kind(v) != "" || hexKey(v) || r.entropy && r.looksRandom(strings.TrimRight(v, "="))
}

// uuid reports whether v is a UUID (8-4-4-4-12 hex digits). Stated for a
// key, token or secret ("the API key is …", "client secret: …") it is one:
// Heroku's API keys and many services' client keys are UUIDs. Beside the
// word alone ("API key fe5e…") or anywhere else it is an id.
func uuid(v string) bool {
	if len(v) != 36 {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch i {
		case 8, 13, 18, 23:
			if v[i] != '-' {
				return false
			}
		default:
			if !allHex(v[i : i+1]) {
				return false
			}
		}
	}
	return true
}

// hexKey reports whether v is 32 or more hex digits, letters and digits
// both: a key given in hex. Shorter runs are ids and hash prefixes.
func hexKey(v string) bool {
	if len(v) < 32 {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case '0' <= c && c <= '9':
			digit = true
		case 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
			letter = true
		default:
			return false
		}
	}
	return letter && digit
}

// quotedSecret reports whether a quoted value stated for a secret of the
// kind is one: a password may be a passphrase of a few words; a key or
// token that is not random-looking (the caller tries that) is one word of
// letters, digits and symbols, not an identifier.
func (r *Redactor) quotedSecret(v, kind string) bool {
	if kind != KindPassword && (r.strongValue(v) || uuid(v)) {
		return true
	}
	if len(v) < 4 || redacted(v) || placeholder(v) || codeWord(strings.ToLower(v)) || label(v) {
		return false
	}
	if kind == KindPassword {
		return len(strings.Fields(v)) <= 6
	}
	return len(v) >= 8 && !strings.ContainsAny(v, " \t") && strings.ContainsAny(v, passwordSymbols) &&
		strings.ContainsAny(v, "0123456789") && strings.ContainsFunc(v, unicode.IsLetter)
}

// passwordSymbols mark a password written bare in prose.
const passwordSymbols = "!@#$^&*+=?~|\\<>"

// bareSecret reports whether an unquoted value stated for a secret of the
// kind is one. A key or token must look like one by itself (see
// [Redactor.strongValue]). A password holds letters and digits, or
// symbols, and is not a term such as sha256 or python3, a number with a
// unit (2048-bit, 90d), a path, an address or code.
func (r *Redactor) bareSecret(v, kind string) bool {
	if len(v) < 6 || len(v) > maxValue || redacted(v) || placeholder(v) || codeWord(strings.ToLower(v)) || label(v) ||
		strings.Contains(v, "://") || strings.ContainsAny(v, "()") || strings.ContainsAny(v[:1], "\"'`“‘«„<[{") ||
		dottedIdent(strings.TrimLeft(v, "*&!")) || email(v) || hexNumber(v) {
		return false // a word, a placeholder, code (*pkg.Type, a string left open), an address
	}
	if kind != KindPassword {
		return r.strongValue(v) || uuid(v) // a key or token is long and random
	}
	if pathLike(v) {
		return false
	}
	var letter, digit, symbol bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c >= utf8.RuneSelf:
			letter = true
		case '0' <= c && c <= '9':
			digit = true
		case strings.IndexByte(passwordSymbols, c) >= 0:
			symbol = true
		}
	}
	switch {
	case symbol && (letter || digit):
		return true
	case letter && digit:
		return !techTerm(v) && !withUnit(v)
	case digit && !letter:
		return allDigits(v) && len(v) >= 8
	}
	return false
}

// pathLike reports whether v is a file path: it starts like one, or holds
// '/' and no password symbol.
func pathLike(v string) bool {
	return rootedPath(v) || strings.Contains(v, "/") && !strings.ContainsAny(v, passwordSymbols)
}

// rootedPath reports whether v starts like a path: /, ~/, ./ or ../.
func rootedPath(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../")
}

// email reports whether v is an e-mail address.
func email(v string) bool {
	at := strings.IndexByte(v, '@')
	if at <= 0 {
		return false
	}
	dot := strings.LastIndexByte(v, '.')
	return dot > at+1 && dot < len(v)-2 && isIdent(v[dot+1:])
}

// withUnit reports whether v is a number with a unit: 2048-bit, 90d,
// 3600s, 10:00pm, 1.5GB.
func withUnit(v string) bool {
	if v == "" || v[0] < '0' || v[0] > '9' {
		return false
	}
	i := len(v)
	for i > 0 && ('a' <= v[i-1]|0x20 && v[i-1]|0x20 <= 'z') {
		i--
	}
	if len(v)-i > 7 {
		return false
	}
	for _, c := range v[:i] {
		if !('0' <= c && c <= '9' || c == '.' || c == ',' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// techTerms are the letters of terms written with a number: algorithms,
// encodings, protocols, runtimes, models.
func techTerm(v string) bool {
	i := 0
	for i < len(v) && ('a' <= v[i]|0x20 && v[i]|0x20 <= 'z') {
		i++
	}
	letters := strings.ToLower(v[:i])
	rest := strings.TrimLeft(v[i:], "-_")
	j := 0
	for j < len(rest) && '0' <= rest[j] && rest[j] <= '9' {
		j++
	}
	if i == 0 || j == 0 {
		return false
	}
	// What follows the number: at most three letters, then digits (utf8mb4, argon2id, gpt4o).
	tail := rest[j:]
	k := 0
	for k < len(tail) && k < 3 && 'a' <= tail[k]|0x20 && tail[k]|0x20 <= 'z' {
		k++
	}
	if !allDigits(tail[k:]) && tail[k:] != "" {
		return false
	}
	if len(letters) <= 2 {
		return true
	}
	switch letters {
	case "sha", "base", "utf", "aes", "rsa", "pkcs", "oauth", "http", "https", "ipv", "tls", "ssl", "crc",
		"blake", "argon", "scrypt", "pbkdf", "gpt", "node", "python", "java", "jdk", "ecma", "ubuntu",
		"debian", "win", "windows", "macos", "ios", "android", "iso", "rfc", "cve", "int", "uint", "float",
		"arm", "amd", "ucs", "ascii", "latin", "fedora", "centos", "rhel", "alpine", "php", "ruby", "perl",
		"lua", "dotnet", "net", "llama", "claude", "gemini", "mistral", "qwen", "phi", "sonnet", "opus",
		"haiku", "bert", "hevc", "mpeg", "ogg", "aac", "ddr", "pci", "usb", "sata", "nvme", "ext", "fat",
		"btrfs", "zstd", "gzip", "bzip", "sse", "avx", "neon", "cuda", "rtx", "gtx", "log", "ed", "hs",
		"rs", "es", "ps", "md", "cp", "vp", "av", "go", "py", "postgres", "mysql", "redis", "ecdsa",
		"des", "rc", "hmac", "sm", "chacha", "poly", "salsa", "curve", "secp", "nist", "ipv4", "html", "css":
		return true
	}
	return false
}
