package redact

import (
	"errors"
	"strings"
	"testing"
)

// Fakes for the prose, hex and split cases, joined as in redact_test.go.
var (
	fakePassword = "Tr0ub4dor" + "&24464"
	fakeHex64    = "9f86d081884c7d659a2feaa0" + "c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	fakeHex32    = "3f9a1c7e" + "5b2d4f6a8c0e1b3d5f7a9c2e"
	fakeB64      = "q8ZxR2mN5vL1kP9w" + "C4tY7hB3jD6sF0gA"
	fakeGHPHead  = "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3j" // a GitHub token cut after 27 characters
	fakeGHPTail  = "F6pS0gA2eY4uI"
)

// TestProseSecrets lists secrets stated in words, in keys given bare beside
// the word key, and in tokens split in pieces: each must go, and only it.
func TestProseSecrets(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// passwords in prose, several phrasings
		{"the password is", "the admin password is " + fakePassword, "the admin password is [REDACTED:password]"},
		{"words between", "The admin password for the staging dashboard is " + fakePassword + ". Log in.",
			"The admin password for the staging dashboard is [REDACTED:password]. Log in."},
		{"was now", "the wifi password was just changed to letmein2024", "the wifi password was just changed to [REDACTED:password]"},
		{"is now", "The VPN password is now P@ssw0rd!", "The VPN password is now [REDACTED:password]!"},
		{"root pw colon", "root pw: Hx9!kq27z", "root pw: [REDACTED:password]"},
		{"pwd equals", "db pwd = hunter2x", "db pwd = [REDACTED:password]"},
		{"passphrase quoted", `passphrase: "correct horse battery staple"`, `passphrase: "[REDACTED:password]"`},
		{"smart quotes", "the password is “Tr0ub4dor&3”", "the password is “[REDACTED:password]”"},
		{"backticks", "the password is `hunter2`", "the password is `[REDACTED:password]`"},
		{"passcode arrow", "door passcode → 48213377", "door passcode → [REDACTED:password]"},
		{"hunter2", "my password is hunter2, don't tell", "my password is [REDACTED:password], don't tell"},
		{"long digits", "the PIN-like password is 48213377", "the PIN-like password is [REDACTED:password]"},
		{"on staging is", "the password on staging is Zq8#rT4vLm", "the password on staging is [REDACTED:password]"},
		// other languages and their punctuation
		{"french space colon", "Le mot de passe du wiki : Zq8#rT4vLm", "Le mot de passe du wiki : [REDACTED:password]"},
		{"german", "Das Passwort ist Zq8#rT4vLm.", "Das Passwort ist [REDACTED:password]."},
		{"german colon", "Kennwort: Zq8#rT4vLm", "Kennwort: [REDACTED:password]"},
		{"spanish", "La contraseña es Zq8#rT4vLm", "La contraseña es [REDACTED:password]"},
		{"portuguese", "a senha é Zq8#rT4vLm", "a senha é [REDACTED:password]"},
		{"russian", "пароль: Zq8#rT4vLm", "пароль: [REDACTED:password]"},
		{"russian capital", "Пароль от сервера: Zq8#rT4vLm", "Пароль от сервера: [REDACTED:password]"},
		{"chinese no spaces", "密码是Zq8#rT4vLm，请保存", "密码是[REDACTED:password]，请保存"},
		{"chinese fullwidth colon", "数据库密码：Zq8#rT4vLm", "数据库密码：[REDACTED:password]"},
		{"japanese", "パスワードは Zq8#rT4vLm です", "パスワードは [REDACTED:password] です"},
		{"korean", "비밀번호는 Zq8#rT4vLm 입니다", "비밀번호는 [REDACTED:password] 입니다"},
		// keys and tokens stated in prose, or bare beside the word
		{"api key is hex", "the API key for staging is " + fakeHex32, "the API key for staging is [REDACTED:api-key]"},
		{"api key is a uuid", "the heroku api key is 4f9c2a1e-7b3d-4e8a-9c6f-1d2e3f4a5b6c", "the heroku api key is [REDACTED:api-key]"},
		{"client secret: uuid", "client secret: 4f9c2a1e-7b3d-4e8a-9c6f-1d2e3f4a5b6c", "client secret: [REDACTED:secret]"},
		{"quoted uuid token", `the token is "4f9c2a1e-7b3d-4e8a-9c6f-1d2e3f4a5b6c"`, `the token is "[REDACTED:token]"`},
		{"secret key is", "the secret key is " + fakeB64, "the secret key is [REDACTED:secret]"},
		{"signing key bare hex", "signing key " + fakeHex64, "signing key [REDACTED:secret]"},
		{"hmac key in a sentence", "sign it with the HMAC key " + fakeHex64 + " and send it", "sign it with the HMAC key [REDACTED:secret] and send it"},
		{"token bare hex", "CSRF token " + fakeHex64, "CSRF token [REDACTED:token]"},
		{"key colon hex", "key: " + fakeHex64, "key: [REDACTED:secret]"},
		{"credential quoted", `the deploy credential is "xK9!2mQz#4"`, `the deploy credential is "[REDACTED:secret]"`},
		{"chinese key", "密钥是" + fakeHex32, "密钥是[REDACTED:secret]"},
		// tokens split across lines and string literals
		{"split over two lines", "BOT=" + fakeGHPHead + "\n" + fakeGHPTail + "\nnext", "BOT=[REDACTED:github-token]\nnext"},
		{"split with indent", "pasted:\n  " + fakeGHPHead + "\n  " + fakeGHPTail + "\n  use it", "pasted:\n  [REDACTED:github-token]\n  use it"},
		{"split short head", "t " + fakeGHPHead[:12] + "\n" + fakeGHPHead[12:] + fakeGHPTail + " ok", "t [REDACTED:github-token] ok"},
		{"string literals plus", `tok := "` + fakeGHPHead + `" +` + "\n\t" + `"` + fakeGHPTail + `"`, `tok := "[REDACTED:github-token]"`},
		{"string literals python", `TOKEN = ("` + fakeGHPHead[:10] + `"` + "\n    " + `"` + fakeGHPHead[10:] + fakeGHPTail + `")`, `TOKEN = ("[REDACTED:github-token]")`},
		{"string literals php", `$k = '` + fakeGHPHead + `' . '` + fakeGHPTail + `';`, `$k = '[REDACTED:github-token]';`},
		{"shell continuation", "curl -H token:" + fakeGHPHead + "\\\n" + fakeGHPTail + " x", "curl -H token:[REDACTED:github-token] x"},
		{"hex key wrapped", "signing key " + fakeHex64[:32] + "\n" + fakeHex64[32:] + "\nend", "signing key [REDACTED:secret]\nend"},
		{"escape ends the value", `w.WriteString("password=longpasswordwithmanycharacters123456789\n")`, `w.WriteString("password=[REDACTED:password]\n")`},
		{"aws id split", `id "` + fakeAWSID[:10] + `" + "` + fakeAWSID[10:] + `"`, `id "[REDACTED:aws-access-key]"`},
		// the line after a finding stays when it is words
		{"next line stays", "DB_PASSWORD=hunter2\nDone\nthe next line", "DB_PASSWORD=[REDACTED:password]\nDone\nthe next line"},
		{"next word stays", "use " + fakeRandom + "\nRelease2 ships Friday", "use [REDACTED:high-entropy]\nRelease2 ships Friday"},
	}
	r := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestProseNotSecrets lists what must stay: prose about secrets, hashes and
// ids beside the words that name them, paths, identifiers, terms.
func TestProseNotSecrets(t *testing.T) {
	tests := []struct{ name, in string }{
		// prose about passwords and keys
		{"required", "the password is required"},
		{"policy", "the password must be rotated every 90 days and is stored in 1Password"},
		{"stored in", "the API key is stored in Vault under ci/deploy"},
		{"length", "the password is at least 12 characters long"},
		{"valid for", "the token is valid for 3600 seconds"},
		{"key insight", "the key is to test first; the key insight is that caching hides it"},
		{"secret sauce", "the secret is to keep functions small"},
		{"same as", "the password is the same as on staging"},
		{"see vault", "Password: see the vault entry for staging-admin"},
		{"hashed with", "the password is hashed with bcrypt; the token is base64-encoded; the key is sha256 of the body"},
		{"tech terms", "the password is utf8, the token is oauth2, the key is ed25519, the secret is argon2id"},
		{"unit", "the key is 2048-bit, the token is 90d, the password is 10:00pm"},
		{"reset email", "the password reset email goes to admin@example.com"},
		{"email value", "the login password is sent to admin@example.com"},
		{"path value", "the private key is ~/.ssh/id_ed25519 and the password file is /etc/app/pw.txt"},
		{"pwd path", "pwd: /home/marco/projects/spotter"},
		{"code value", "the token is config.apiToken; the password is getPassword(user)"},
		{"placeholder", "the password is <your-password>, the API key is ${API_KEY}, the token is ****"},
		{"passwords in other languages", "Passwort: siehe Tresor. La contraseña es obligatoria. パスワードは必須です"},
		{"token count", "max tokens is 4096 and the token count is 1234; input token 5"},
		{"identifier", "password_min_length: 12, token_url: https://auth.example.com/token"},
		{"version", "the key format is v1.2.3; the token version is 2"},
		{"date", "the password expired on 2026-12-01; the key was rotated 2026-11-30"},
		// hashes, ids and anchors beside key words
		{"key commit", "the key commit is 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2"},
		{"commit hash", "commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 fixed the token refresh"},
		{"cache key", "the cache key is " + fakeHex64},
		{"public key", "public key " + fakeHex64},
		{"primary key", "primary key: 550e8400-e29b-41d4-a716-446655440000"},
		{"key id uuid", "the API key id is fe5e1c67-53e7-4862-81ae-d0e013e3270b"},
		{"uuid after key", "API key fe5e1c67-53e7-4862-81ae-d0e013e3270b"},
		{"session is a uuid", "the session is fe5e1c67-53e7-4862-81ae-d0e013e3270b and the trace id is 550e8400-e29b-41d4-a716-446655440000"},
		{"fingerprint", "key fingerprint: SHA256:" + fakeHex64},
		{"sha256 anchor", "anchors:\n  files:\n    - path: internal/auth/service.go\n      sha256: 3a7b9c0d12ef4455"},
		{"short hex", "the key prefix is 3a7b9c0d12ef4455"},
		{"git sha256 object", "key object sha256 " + fakeHex64},
		// code and identifiers
		{"map key", "for key, value := range m { cache[key] = value }"},
		{"key type", "func (c *Cache) Get(key string) (token Token, ok bool)"},
		{"json key", `{"key": "a", "token": "first", "password": ""}`},
		{"keyboard", "the keyboard shortcut key is Ctrl+K"},
		{"hex then words", "the signing key " + fakeHex64[:16] + " is short"},
		{"string concat of words", `msg := "the token" + "is fine"`},
		{"go pointer type", `fmt.Errorf("unsupported certificate: private key is *ed25519.PrivateKey, expected")`},
		{"string left open", `cmd.Env = append(cmd.Environ(), "PWD="+tc.pwd)`},
	}
	r := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.String(tt.in); got != tt.in {
				t.Errorf("String(%q)\n got %q\nwant it unchanged", tt.in, got)
			}
		})
	}
}

func TestFind(t *testing.T) {
	text := "Deploys use the bot.\nThe token is " + fakeGHP + "\n<private>home</private> and\n  root pw: Hx9!kq27z"
	got := Find(text)
	want := []Finding{
		{Kind: "github-token", Line: 2, Column: 14},
		{Kind: KindPassword, Line: 4, Column: 12},
	}
	if len(got) != len(want) {
		t.Fatalf("Find = %+v, want %d findings (no private span)", got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Kind != w.Kind || g.Line != w.Line || g.Column != w.Column {
			t.Errorf("Find()[%d] = %s at %d:%d, want %s at %d:%d", i, g.Kind, g.Line, g.Column, w.Kind, w.Line, w.Column)
		}
		if text[g.Start:g.End] == "" {
			t.Errorf("Find()[%d] spans nothing", i)
		}
	}
}

func TestCheck(t *testing.T) {
	err := Check(
		Field{Name: "description", Text: "The admin password is " + fakePassword},
		Field{Name: "body", Text: "Line one.\nLine two.\nUse " + fakeAWSID + " here.\n"},
		Field{Name: "why", Text: "The user said so."}, Field{Name: "body", Text: "One line " + fakeGHP, Lines: true},
	)
	want := "description: password: refused, secrets are never stored\n" +
		"body: line 3: AWS access key: refused, secrets are never stored\n" +
		"body: line 1: GitHub token: refused, secrets are never stored"
	if err == nil || err.Error() != want {
		t.Fatalf("Check = %v, want\n%s", err, want)
	}
	if !errors.Is(err, ErrSecret) {
		t.Errorf("errors.Is(Check(…), ErrSecret) = false")
	}
	var se *SecretError
	if !errors.As(err, &se) || se.Field != "description" || se.Kind != KindPassword {
		t.Errorf("errors.As(Check(…)) = %+v, want the description's password", se)
	}
	if strings.Contains(err.Error(), fakePassword) || strings.Contains(err.Error(), fakeAWSID) {
		t.Errorf("the error holds the secret: %v", err)
	}
	if err := Check(Field{Name: "body", Text: "Release commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2."}); err != nil {
		t.Errorf("Check(a commit hash) = %v, want nil", err)
	}
}

// TestDescribe checks that every provider's kind has a name for people.
func TestDescribe(t *testing.T) {
	for _, p := range providerTable() {
		if got := Describe(p.kind); got == p.kind || got == "" {
			t.Errorf("Describe(%q) = %q, want a name for people", p.kind, got)
		}
	}
	for kind, want := range map[string]string{"github-token": "GitHub token", "aws-access-key": "AWS access key", KindPassword: "password"} {
		if got := Describe(kind); got != want {
			t.Errorf("Describe(%q) = %q, want %q", kind, got, want)
		}
	}
}
