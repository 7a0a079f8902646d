package redact

import "strings"

// maxAuthority bounds the user:password@host part of a URL.
const maxAuthority = 512

// findURLPasswords finds the password in scheme://user:password@host. The
// user name, host and path stay; URLs without a password are left alone.
func findURLPasswords(fs []span, s string) []span {
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			return fs
		}
		j += i
		i = j + 3
		if j == 0 || !isSchemeChar(s[j-1]) {
			continue
		}
		auth := i
		for auth < len(s) && auth-i < maxAuthority && !strings.ContainsRune("/?#\"'`<>()[]{} \t\r\n", rune(s[auth])) {
			auth++
		}
		if auth-i >= maxAuthority {
			continue
		}
		authority := s[i:auth]
		at := strings.LastIndexByte(authority, '@')
		if at < 0 {
			continue
		}
		colon := strings.IndexByte(authority[:at], ':')
		if colon < 0 {
			continue
		}
		pw := authority[colon+1 : at]
		if pw == "" || placeholder(pw) {
			continue
		}
		fs = append(fs, span{i + colon + 1, i + at, KindURLPassword})
	}
}

func isSchemeChar(c byte) bool {
	return isAlnum(c) || c == '+' || c == '.' || c == '-'
}
