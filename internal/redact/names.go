package redact

import (
	"strings"
	"unicode"
)

// describesSecret reports whether a name ending with word describes a
// secret without holding one: max_tokens, password_length, token_url,
// secret_name…
func describesSecret(word string) bool {
	switch word {
	case "count", "counts", "length", "len", "limit", "limits", "max", "min", "size", "type", "types",
		"name", "names", "field", "fields", "file", "files", "path", "paths", "dir", "url", "uri",
		"endpoint", "id", "ids", "usage", "used", "ttl", "expiry", "expires", "expiration", "at",
		"header", "env", "var", "prompt", "budget", "policy", "mode", "format", "kind", "label",
		"hint", "pattern", "regex", "required", "enabled", "method", "index", "offset", "store",
		"provider", "manager", "service", "handler", "validator", "input", "placeholder", "version",
		"flow", "source", "prefix", "suffix", "rotation", "error", "errors", "message", "status",
		"state", "valid", "ref", "arn", "location", "generator", "strategy", "scheme", "estimate",
		"estimator", "mask", "policies", "class", "tokens":
		return true
	}
	return false
}

// qualifiesKey reports whether word, before "key", makes it a secret key
// (api_key, private_key; not sort_key or primary_key).
func qualifiesKey(word string) bool {
	switch word {
	case "api", "access", "secret", "private", "signing", "encryption", "master", "client", "app",
		"account", "auth", "session", "license", "service", "subscription", "consumer", "webhook",
		"x", "ssh", "gpg", "decryption":
		return true
	}
	return false
}

// secretName returns the kind of secret a field name announces, or "" when
// it announces none. The name is split into words (snake_case, kebab-case,
// dotted, camelCase); it is secret when a word is password, passwd,
// passphrase, pass, pwd, secret, token, credential(s), auth, authorization
// or cookie, or ends with password or passwd (PGPASSWORD), or is "key"
// preceded by a qualifier such as api or private, or is apikey — unless its last word says it describes the secret (max_tokens,
// password_length, token_url).
func secretName(name string) string {
	words := splitName(name)
	if len(words) == 0 || describesSecret(words[len(words)-1]) {
		return ""
	}
	kind := ""
	for i, w := range words {
		switch w {
		case "password", "passwd", "passphrase", "pwd":
			return KindPassword
		case "pass", "pw":
			if len(words) > 1 { // db_pass, SMTP_PW; a lone PASS is a test result
				return KindPassword
			}
		case "token", "accesstoken", "refreshtoken", "authtoken":
			kind = pick(kind, KindToken)
		case "apikey", "apitoken":
			kind = pick(kind, KindAPIKey)
		case "privatekey":
			kind = pick(kind, KindPrivateKey)
		case "secret", "secrets", "credential", "credentials", "creds", "auth", "authorization", "cookie", "clientsecret":
			kind = pick(kind, KindSecret)
		case "key", "keys":
			if i > 0 && qualifiesKey(words[i-1]) {
				switch words[i-1] {
				case "private":
					kind = pick(kind, KindPrivateKey)
				case "api":
					kind = pick(kind, KindAPIKey)
				default:
					kind = pick(kind, KindSecret)
				}
			}
		default:
			if strings.HasSuffix(w, "password") || strings.HasSuffix(w, "passwd") {
				return KindPassword // PGPASSWORD, MYSQLPASSWORD: one word
			}
		}
	}
	return kind
}

// pick keeps the first kind found, except that a more telling one replaces
// the generic "secret".
func pick(have, found string) string {
	if have == "" || have == KindSecret {
		return found
	}
	return have
}

// splitName splits an identifier into lower-case words at _, -, ., and
// camelCase boundaries (APIKey → api, key; dbPassword → db, password).
func splitName(name string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		rs := []rune(part)
		start := 0
		for i := 1; i < len(rs); i++ {
			lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
			acronymEnd := unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			digitEdge := unicode.IsDigit(rs[i-1]) != unicode.IsDigit(rs[i])
			if lowerToUpper || acronymEnd || digitEdge {
				words = append(words, strings.ToLower(string(rs[start:i])))
				start = i
			}
		}
		words = append(words, strings.ToLower(string(rs[start:])))
	}
	return words
}
