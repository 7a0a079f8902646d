package redact

import (
	"strings"
	"unicode"
)

// maxValue bounds the length of a named secret's value.
const maxValue = 4096

// findAssignments finds values given to names that look secret, in the
// shapes of env files, shell, YAML, JSON, TOML, code and command lines:
//
//	DB_PASSWORD=hunter2        export GITHUB_TOKEN="…"     --api-key abc123
//	password: hunter2          "client_secret": "…"         apiKey := "…"
//	?access_token=…&           secret_key => '…'            Authorization: Bearer …
//
// Only the value is replaced; the name stays, so a reader still knows a
// password was there. Values that are code (a variable, a call, a field
// access), placeholders (${X}, <token>, ****, your-api-key) or plain
// numbers are left alone.
func findAssignments(fs []span, s, lower string) []span {
	done := 0 // end of the last name examined
	// These words start the search; each hit is checked by [secretName]
	// on the whole name around it.
	for _, w := range [...]string{"pass", "pwd", "secret", "token", "key", "credential", "auth", "cookie"} {
		done = 0
		for i := 0; ; {
			j := strings.Index(lower[i:], w)
			if j < 0 {
				break
			}
			j += i
			i = j + len(w)
			if j < done {
				i = done // inside the name examined last
				continue
			}
			ns, ne := nameBounds(lower, j, j+len(w))
			done = ne
			kind := secretName(s[ns:ne])
			if kind == "" {
				continue
			}
			if vs, ve, ok := assignedValue(s, ns, ne, kind); ok {
				fs = append(fs, span{vs, ve, kind})
			}
		}
	}
	return fs
}

func isNameChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.'
}

// nameBounds widens [i, j) to the whole name around it.
func nameBounds(lower string, i, j int) (int, int) {
	for i > 0 && isNameChar(lower[i-1]) {
		i--
	}
	for j < len(lower) && isNameChar(lower[j]) {
		j++
	}
	return i, j
}

// assignedValue returns the span of the value assigned to the name at
// [ns, ne) of s, if any, given the kind of secret the name announces.
func assignedValue(s string, ns, ne int, kind string) (int, int, bool) {
	name := s[ns:ne]
	if vs, ve, ok := elementValue(s, ns, ne); ok {
		return vs, ve, secretValue(s[vs:ve], kind, true, false)
	}
	i := ne
	if i < len(s) && (s[i] == '"' || s[i] == '\'') && ns > 0 && s[ns-1] == s[i] {
		i++ // the closing quote of a quoted key
	}
	i = skipSpaces(s, i)
	flag := strings.HasPrefix(name, "-")
	switch {
	case strings.HasPrefix(s[i:], ":="), strings.HasPrefix(s[i:], "=>"):
		i += 2
	case i < len(s) && (s[i] == '=' || s[i] == ':'):
		if strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "::") {
			return 0, 0, false
		}
		i++
	case flag && i > ne:
		// --password value
	default:
		return 0, 0, false
	}
	i = skipSpaces(s, i)
	vs, ve, quoted := valueSpan(s, i)
	if ve <= vs || ve-vs > maxValue {
		return 0, 0, false
	}
	v := s[vs:ve]
	if w, ok := authScheme(s, vs, ve, quoted); ok {
		vs, v = w, s[w:ve]
	}
	if !secretValue(v, kind, quoted, envStyle(name) || flag) {
		return 0, 0, false
	}
	return vs, ve, true
}

// elementValue returns the span of the text of an XML element whose name
// is at [ns, ne) of s: <password>…</password>, attributes allowed, on one
// line, spaces around the text left out (Maven's settings.xml, a .NET
// config, a SOAP header). An element holding others is not one.
func elementValue(s string, ns, ne int) (int, int, bool) {
	if ns == 0 || s[ns-1] != '<' || ne >= len(s) {
		return 0, 0, false
	}
	open := ne
	if s[open] != '>' {
		if s[open] != ' ' && s[open] != '\t' {
			return 0, 0, false
		}
		gt := strings.IndexAny(s[open:min(len(s), open+maxValue)], "<>\n")
		if gt < 0 || s[open+gt] != '>' || s[open+gt-1] == '/' {
			return 0, 0, false // not a start tag on one line, or an empty element
		}
		open += gt
	}
	vs := open + 1
	end := strings.IndexAny(s[vs:min(len(s), vs+maxValue+1)], "<\n")
	if end < 0 || !strings.HasPrefix(s[vs+end:], "</"+s[ns:ne]+">") {
		return 0, 0, false
	}
	ve := vs + end
	for vs < ve && (s[vs] == ' ' || s[vs] == '\t') {
		vs++
	}
	for ve > vs && (s[ve-1] == ' ' || s[ve-1] == '\t') {
		ve--
	}
	return vs, ve, ve > vs
}

// authScheme moves past "Bearer " or "Basic " at the start of a quoted
// header value, so only the credential is redacted.
func authScheme(s string, vs, ve int, quoted bool) (int, bool) {
	v := s[vs:ve]
	for _, p := range [...]string{"Bearer ", "bearer ", "Basic ", "basic ", "Token ", "token "} {
		if strings.HasPrefix(v, p) && quoted {
			return vs + len(p), true
		}
	}
	return vs, false
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// valueSpan returns the value starting at i: a quoted string on one line
// (quotes excluded), or a run up to a space or a delimiter. A header such as
// "Authorization: Bearer x" gives its whole value, scheme included.
func valueSpan(s string, i int) (int, int, bool) {
	if i >= len(s) {
		return i, i, false
	}
	if q := s[i]; q == '"' || q == '\'' || q == '`' {
		for j := i + 1; j < len(s) && j-i <= maxValue+1; j++ {
			switch s[j] {
			case '\\':
				j++
			case '\n':
				return i, i, false
			case q:
				return i + 1, j, true
			}
		}
		return i, i, false
	}
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\r\n,;&\"'`<>(){}[]|", rune(s[j])) {
		j++
	}
	if word := s[i:j]; strings.EqualFold(word, "Bearer") || strings.EqualFold(word, "Basic") || strings.EqualFold(word, "Token") {
		k := skipSpaces(s, j)
		e := k
		for e < len(s) && !strings.ContainsRune(" \t\r\n,;\"'`<>(){}[]|", rune(s[e])) {
			e++
		}
		if k > j && !strings.Contains(s[k:e], "=") || e == k {
			return k, e, false // the credential, or nothing: never the scheme word
		}
	}
	return i, j, false
}

// envStyle reports whether a name is written like an environment variable
// (DB_PASSWORD), where even a bare word is a value, not a variable.
func envStyle(name string) bool {
	hasUpper := false
	for _, r := range name {
		if unicode.IsLower(r) {
			return false
		}
		hasUpper = hasUpper || unicode.IsUpper(r)
	}
	return hasUpper
}

// codeWord reports whether a value is a type, a keyword or an empty
// marker rather than a secret.
func codeWord(v string) bool {
	switch v {
	case "true", "false", "null", "nil", "none", "undefined", "string", "str", "int", "bool",
		"bytes", "[]byte", "required", "optional", "redacted", "hidden", "secret", "password",
		"token", "env", "empty", "string?", "string;", "string,", "bearer", "basic", "oauth",
		"apikey", "api_key", "iam", "jwt":
		return true
	}
	return false
}

// label reports whether v is made of letters, '-' and '_' only and names a
// secret itself (it contains password, token, secret or key).
func label(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	lv := strings.ToLower(v)
	for _, w := range [...]string{"password", "passwd", "token", "secret", "key", "credential"} {
		if strings.Contains(lv, w) {
			return true
		}
	}
	return false
}

// secretValue reports whether v, given to a name announcing a secret of
// the kind, is a secret rather than code, a label or a placeholder. A bare
// word (no digits, no symbols) is taken for a variable unless the name is
// env-style or a flag; only a password may hold spaces (a passphrase).
func secretValue(v, kind string, quoted, bareIsValue bool) bool {
	if len(v) < 4 || redacted(v) || placeholder(v) || codeWord(strings.ToLower(v)) {
		return false
	}
	if allDigits(v) && len(v) < 8 || hexNumber(v) {
		return false // ports, counts, lengths, constants
	}
	if strings.Contains(v, `\n`) && kind != KindPrivateKey {
		return false // a string of code or output, escapes and all
	}
	if strings.ContainsAny(v, " \t") && kind != KindPrivateKey && (kind != KindPassword || len(strings.Fields(v)) > 6) {
		return false
	}
	if label(v) {
		return false // "X-Connection-Token", "encodeUserPassword": names, not values
	}
	if kind != KindPassword && len(v) < 16 && !strings.ContainsFunc(v, func(r rune) bool { return r < 'A' || r > 'z' || r > 'Z' && r < 'a' }) {
		return false // a short word: {Token: "first"}; keys and tokens are long or mixed
	}
	if quoted {
		return true
	}
	if kind == KindPassword && rootedPath(v) {
		return false // pwd: /home/x, the output of a command
	}
	if strings.ContainsAny(v, "()") {
		return false // a call
	}
	if isIdent(v) && !bareIsValue {
		return false // a variable
	}
	if dottedIdent(v) {
		return false // a field access: config.token, process.env.TOKEN
	}
	return true
}

// placeholder reports whether v stands for a value rather than being one:
// ${X}, $X, %X%, {{x}}, <x>, ****, xxxx, your-api-key, "...".
func placeholder(v string) bool {
	lv := strings.ToLower(v)
	switch {
	case strings.HasPrefix(v, "$"), strings.HasPrefix(v, "%"), strings.HasPrefix(v, "{{"),
		strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">"),
		strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"),
		strings.HasPrefix(lv, "your"), strings.HasPrefix(lv, "my-"), strings.HasPrefix(lv, "my_"),
		strings.Contains(lv, "placeholder"), strings.Contains(lv, "changeme") && len(lv) > 12,
		strings.HasPrefix(v, "..."), strings.HasSuffix(v, "..."):
		return true
	}
	return sameChar(v)
}

func sameChar(v string) bool {
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			return false
		}
	}
	return true
}

// hexNumber reports whether v is a number written in hex: 0x7f.
func hexNumber(v string) bool {
	return (strings.HasPrefix(v, "0x") || strings.HasPrefix(v, "0X")) && allHex(v[2:])
}

func allDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return v != ""
}

// isIdent reports whether v is a plain identifier without digits.
func isIdent(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_') {
			return false
		}
	}
	return v != ""
}

// dottedIdent reports whether v is a.b or a.b.c made of identifiers.
func dottedIdent(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || !isIdentDigits(p) {
			return false
		}
	}
	return true
}

func isIdentDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(isAlnum(c) || c == '_') {
			return false
		}
	}
	return v != "" && !('0' <= v[0] && v[0] <= '9')
}
