package redact

import (
	"encoding/hex"
	"strings"
	"testing"
)

// Credentials in these tests are fakes in real formats. They are written
// as concatenations so that secret scanners reading this file do not flag
// it, and so that no real key could ever match.
var (
	fakeAnthropic = "sk-ant-" + "api03-" + "Xk9vQ2mR7tLw3nB8cD5fG1hJ4kZ6pS0qU2yV8xW7eA3rT9uI5oP1lK4jH6gF2dS8aZ0xC7vB3nM5q-QwErTyAA"
	fakeOpenAI    = "sk-" + "proj-" + "Hq3LmZ8vT2xW9cN4bR7kJ1pF6sD0gY5uA3eQ8iO2tL7nM4vB9cX1zK6jH0wS5rT3yU8p"
	fakeOpenAIOld = "sk-" + "T3BlbkFJ" + "q8ZxR2mN5vL1kP9wC4tY7hB3jD6sF0gA"
	fakeAWSID     = "AKIA" + "Z7QX4RW2LM9KD3PV"
	fakeAWSSecret = "wJalrXUtnFEMI/" + "K7MDENG/bPxRfiCYz8kQ4vN2pL"
	fakeGCPKey    = "AIza" + "SyD8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2e"
	fakeGHP       = "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	fakeGHPat     = "github_pat_" + "11ABCDEFG0" + "aB3dE5fG7hJ9kL1mN3pQ5r_T7vW9xY1zA3cE5gH7jK9mP1qS3uW5yA7cE9gJ1kM3pR5tV7xZ9bD1fH3jL5nP7"
	fakeGitLab    = "glpat-" + "xR7kP2mN9vQ4tW1cB5zH"
	fakeSlack     = "xoxb-" + "123456789012-1234567890123-" + "AbCdEfGhIjKlMnOpQrStUvWx"
	fakeStripe    = "sk_live_" + "51HqLmZ8vT2xW9cN4bR7kJ1p"
	fakeNPM       = "npm_" + "aB3dE5fG7hJ9kL1mN3pQ5rT7vW9xY1zA3cE5"
	fakeHF        = "hf_" + "aB3dE5fG7hJ9kL1mN3pQ5rT7vW9xY1zA3"
	fakeJWT       = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + "." +
		"eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ" + "." +
		"SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	fakeRandom = "7fK2pQ9xLm4Rz8Tv1Wb6Yc3Nd5Hg0Js"
	fakePEM    = "-----BEGIN " + "RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n" +
		"aFDrBz9vFqU4yI8Wmq1TyJzTfdv6ZTy0P3oPvG0Jm1iLdmJoHX8QoZ2pJgqOmdZa\n" +
		"-----END " + "RSA PRIVATE KEY-----"
)

func TestStringPositives(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"anthropic env", "export ANTHROPIC_API_KEY=" + fakeAnthropic, "export ANTHROPIC_API_KEY=[REDACTED:anthropic-key]"},
		{"openai in json", `{"key": "` + fakeOpenAI + `"}`, `{"key": "[REDACTED:openai-key]"}`},
		{"openai legacy in prose", "I used " + fakeOpenAIOld + " for it", "I used [REDACTED:openai-key] for it"},
		{"aws access key id", "aws_access_key_id = " + fakeAWSID, "aws_access_key_id = [REDACTED:aws-access-key]"},
		{"aws secret named", "aws_secret_access_key = " + fakeAWSSecret, "aws_secret_access_key = [REDACTED:secret]"},
		{"aws secret bare", "the secret is " + fakeAWSSecret + " today", "the secret is [REDACTED:secret] today"},
		{"gcp api key", "key=" + fakeGCPKey + "&q=1", "key=[REDACTED:gcp-api-key]&q=1"},
		{"gcp service account", `"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",`,
			`"private_key": "[REDACTED:private-key]",`},
		{"github classic", "token " + fakeGHP, "token [REDACTED:github-token]"},
		{"github fine-grained", "GH_TOKEN=" + fakeGHPat, "GH_TOKEN=[REDACTED:github-token]"},
		{"github in clone url", "git clone https://" + fakeGHP + "@github.com/o/r.git", "git clone https://[REDACTED:github-token]@github.com/o/r.git"},
		{"gitlab", "glab auth login --token " + fakeGitLab, "glab auth login --token [REDACTED:gitlab-token]"},
		{"slack", "SLACK_BOT_TOKEN: " + fakeSlack, "SLACK_BOT_TOKEN: [REDACTED:slack-token]"},
		{"stripe", "Stripe.api_key = '" + fakeStripe + "'", "Stripe.api_key = '[REDACTED:stripe-key]'"},
		{"npmrc", "//registry.npmjs.org/:_authToken=" + fakeNPM, "//registry.npmjs.org/:_authToken=[REDACTED:npm-token]"},
		{"hugging face", "HF_TOKEN=" + fakeHF, "HF_TOKEN=[REDACTED:huggingface-token]"},
		{"jwt", "cookie session=" + fakeJWT + "; Path=/", "cookie session=[REDACTED:jwt]; Path=/"},
		{"pem block", "key:\n" + fakePEM + "\nend", "key:\n[REDACTED:private-key]\nend"},
		{"pem cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n[... 300 chars cut ...]",
			"[REDACTED:private-key][... 300 chars cut ...]"},
		{"url password", "DATABASE_URL=postgres://app:s3cr3tP4ss@db.internal:5432/app", "DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/app"},
		{"url password in prose", "connect to redis://:hunter2@cache:6379/0 first", "connect to redis://:[REDACTED:url-password]@cache:6379/0 first"},
		{"env password", "DB_PASSWORD=hunter2", "DB_PASSWORD=[REDACTED:password]"},
		{"env bare word", "SMTP_PASS=lettersonly", "SMTP_PASS=[REDACTED:password]"},
		{"yaml password", "  password: hunter2\n  user: app", "  password: [REDACTED:password]\n  user: app"},
		{"json secret", `{"client_secret": "9f8e7d6c5b4a39281706f5e4d3c2b1a0"}`, `{"client_secret": "[REDACTED:secret]"}`},
		{"toml api key", `api_key = "abcd1234efgh5678"`, `api_key = "[REDACTED:api-key]"`},
		{"go struct", `cfg := Config{Password: "Tr0ub4dor&3"}`, `cfg := Config{Password: "[REDACTED:password]"}`},
		{"go short assign", `apiKey := "k-92hf7s6d5"`, `apiKey := "[REDACTED:api-key]"`},
		{"xml element", "<user>app</user><password>Tr0ub4dor&amp;3</password>", "<user>app</user><password>[REDACTED:password]</password>"},
		{"xml element with attributes", `<apiKey type="live">k-92hf7s6d5x</apiKey>`, `<apiKey type="live">[REDACTED:api-key]</apiKey>`},
		{"xml element spaced", "<client_secret> 9f8e7d6c5b4a39281706f5e4d3c2b1a0 </client_secret>", "<client_secret> [REDACTED:secret] </client_secret>"},
		{"maven settings", "<server><id>nexus</id><username>ci</username><password>Xk9mQ2vLp7</password></server>", "<server><id>nexus</id><username>ci</username><password>[REDACTED:password]</password></server>"},
		{"pgpassword", "PGPASSWORD=Xk9mQ2vLp7 psql -h db", "PGPASSWORD=[REDACTED:password] psql -h db"},
		{"curl user", "curl -u admin:Sup3rS3cret https://x", "curl -u admin:[REDACTED:password] https://x"},
		{"curl user long quoted", "curl -s --user 'admin:Xk9 mQ2' https://x", "curl -s --user 'admin:[REDACTED:password]' https://x"},
		{"curl user equals", "/usr/bin/curl --user=admin:Sup3rS3cret https://x", "/usr/bin/curl --user=admin:[REDACTED:password] https://x"},
		{"sshpass", "sshpass -p Sup3rS3cret ssh ci@build", "sshpass -p [REDACTED:password] ssh ci@build"},
		{"mysql attached", "mysql -u root -pSup3rS3cret db", "mysql -u root -p[REDACTED:password] db"},
		{"docker login", "docker login -u ci -p Sup3rS3cret reg", "docker login -u ci -p [REDACTED:password] reg"},
		{"after a pipe", "echo x | curl -u a:Sup3rS3cret -d @- https://x", "echo x | curl -u a:[REDACTED:password] -d @- https://x"},
		{"flag with space", "mysql --password Tr0ub4dor3 -h db", "mysql --password [REDACTED:password] -h db"},
		{"query string", "GET /cb?access_token=ya2Kq8x7Zp&state=1", "GET /cb?access_token=[REDACTED:token]&state=1"},
		{"bearer header", `curl -H "Authorization: Bearer abcDEF123456ghiJKL789" https://api`, `curl -H "Authorization: Bearer [REDACTED:token]" https://api`},
		{"passphrase with spaces", `passphrase: "correct horse battery staple"`, `passphrase: "[REDACTED:password]"`},
		{"high entropy bare", "use " + fakeRandom + " in the header", "use [REDACTED:high-entropy] in the header"},
		{"private span", "my address is <private>12 Main St</private> ok", "my address is [REDACTED:private] ok"},
		{"private span any case", "a <PRIVATE>x</Private> b", "a [REDACTED:private] b"},
		{"private nested", "a <private>x <private>y</private> z</private> b", "a [REDACTED:private] b"},
		{"private unclosed", "a <private>everything after", "a [REDACTED:private]"},
		{"private multiline", "x <private reason=\"pii\">line1\nline2</private>\ny", "x [REDACTED:private]\ny"},
		{"key inside private", "<private>" + fakeGHP + "</private>", "[REDACTED:private]"},
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

func TestStringNegatives(t *testing.T) {
	tests := []struct{ name, in string }{
		{"commit hash", "commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 (HEAD -> main)"},
		{"short hash", "fixed in 4f2e9c1"},
		{"plist keys", "<dict><key>CFBundleIdentifier</key><string>com.example.app</string><key>password</key></dict>"},
		{"xml element of a placeholder", "<password>${env.NEXUS_PASSWORD}</password>"},
		{"xml element holding others", "<secretKeyRef><name>db</name><key>password</key></secretKeyRef>"},
		{"xml element of a setting", "<passwordPolicy>strict</passwordPolicy><authToken/>"},
		{"uuid", "session fe5e1c67-53e7-4862-81ae-d0e013e3270b resumed"},
		{"sha256 sum", "3a7b9c0d12ef44556677889900aabbccddeeff00112233445566778899aabbcc  mnemo.tar.gz"},
		{"cargo lock checksum", `checksum = "3a7b9c0d12ef44556677889900aabbccddeeff00112233445566778899aabbcc"`},
		{"npm integrity", `"integrity": "sha512-Q8x3ZpLm7vT2xW9cN4bR7kJ1pF6sD0gY5uA3eQ8iO2tL7nM4vB9cX1zK6jH0wS5rT3yU8pQ2mR7tLw3nB8cD5fG1hJ4kZ6pS0qU==",`},
		{"yarn integrity", `  integrity sha1-Xk9vQ2mR7tLw3nB8cD5fG1hJ4kZ=`},
		{"go.sum", "github.com/spf13/cobra v1.10.2 h1:/Xk9vQ2mR7tLw3nB8cD5fG1hJ4kZ6pS0qU2yV8xW7eA=\n"},
		{"docker digest", "image@sha256:3a7b9c0d12ef44556677889900aabbccddeeff00112233445566778899aabbcc"},
		{"go identifier", "func TestDigestSplitsChunksAtTurnBoundariesUnderBudget2(t *testing.T)"},
		{"constant", "http2cipher_TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 = 0xC02F"},
		{"java class", "org.springframework.beans.factory.support.DefaultListableBeanFactory"},
		{"java identifier", "AbstractAnnotationConfigDispatcherServletInitializer2"},
		{"camel with digits", "setUpF32SFlagSetWithDefault and BenchmarkScanFast10M and numOfTestIPv4MCAddrs"},
		{"path", "/home/marco/projects/spotter/assets/js/app.js"},
		{"relative path", "internal/transcript/testdata/compaction_2026-11-30.jsonl"},
		{"pnpm path", "node_modules/.pnpm/@next+swc-darwin-arm64@15.5.2/node_modules/@next/swc-darwin-arm64"},
		{"temp path", "/tmp/claude-1000/-home-marco-projects-spotter/tasks/bae407b.output"},
		{"semver", "upgrade modernc.org/sqlite v1.45.0 to v1.62.0 with go1.26.8 and Claude Code 2.1.38"},
		{"url", "see https://github.com/xtermjs/xterm.js/issues/1343?tab=comments#issuecomment-123456789"},
		{"url with user only", "git clone https://user@example.com/repo.git"},
		{"scp-like", "git@github.com:mnemo-dev/mnemo.git"},
		{"ipv6 url", "curl http://[::1]:8080/path?q=1"},
		{"url without auth", "postgres://localhost:5432/app?sslmode=disable"},
		{"url password placeholder", "postgres://app:${DB_PASSWORD}@db:5432/app"},
		{"getenv", `password := os.Getenv("DB_PASSWORD")`},
		{"call", "token = getToken(ctx)"},
		{"variable", "if err := check(password); err != nil { return token }"},
		{"field access", "apiKey: config.apiKey,"},
		{"ts type", "interface Creds { apiKey: string; password?: string }"},
		{"actions placeholder", "password: ${{ secrets.DB_PASSWORD }}"},
		{"env reference", "DB_PASSWORD=${DB_PASSWORD}"},
		{"angle placeholder", `"password": "<your-password>"`},
		{"your placeholder", "API_KEY=your-api-key-here"},
		{"stars", "password: ********"},
		{"counts", `max_tokens=4096 "input_tokens": 1234 token_count: 5 password_min_length: 12`},
		{"names", "secretName: tls-cert\nsecret_name: my-db-secret\ntoken_url: https://auth.example.com/token"},
		{"label value", `const fakeConnectionToken = "X-Fake-Connection-Token"`},
		{"prose", "the password must be rotated every 90 days; use a token bucket for rate limiting"},
		{"test output", "--- PASS: TestFoo (0.00s)\n=== RUN   TestBar\nPASS\nok  	github.com/mnemo-dev/mnemo	0.12s"},
		{"image data uri", "![x](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)"},
		{"api ids", "msg_01LbyjvsALGe2gMsTgDSj7e6 toolu_01DKTWcKpZ2ksZQmoKKfxiw6 req_011CY1DbbVb9F8NCfb4b1CiC"},
		{"certificate", "-----BEGIN CERTIFICATE-----\nMIIDSDCCAjCgAwIBAgIQEP/md970HysdBTpuzDOf0DANBgkqhkiG9w0BAQsFADAS\nMRAwDgYDVQQKEwdBY21lIENvMCAXDTcwMDEwMTAwMDAwMFoYDzIwODQwMTI5MTYw\n-----END CERTIFICATE-----"},
		{"ssh public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host"},
		{"already redacted", "GH_TOKEN=[REDACTED:github-token] password: [REDACTED:password]"},
		{"short sk word", "scikit-learn aka sk-learn"},
		{"email", "contact marco@example.com"},
		{"base64 word", "echo aGVsbG8= | base64 -d"},
		{"llm tokens", `logprobs := []Logprob{{Token: "first"}, {Token: "second"}}`},
		{"user and group", "docker run -u 1000:1000 app && docker exec -u www-data:www-data app sh"},
		{"curl user alone", "curl -u admin https://x; curl -u \"$API_USER:$API_PASS\" https://x"},
		{"mysql prompts", "mysql -u root -p legacy; mysql -p"},
		{"ports", "ssh -p 2222 host; scp -P 2222 f host:; curl https://x | sshpass -f pwfile ssh -p 22 h"},
		{"flag of another command", "ls -u a:b; tar -p -xf x.tar; grep -u admin:Sup3rS3cret f"},
		{"password words", "NOPASSWORD=true ALLOW_EMPTY_PASSWORD=yes"},
		{"auth mode", "BEDROCK_AUTH=bearer BEDROCK_MODEL=us.anthropic.claude-opus"},
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

func TestLiterals(t *testing.T) {
	r := New(Options{Literals: []string{"correct-horse-battery", "short"}})
	got := r.String("pw correct-horse-battery and short stay")
	want := "pw [REDACTED:secret] and short stay"
	if got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

func TestNoEntropy(t *testing.T) {
	r := New(Options{NoEntropy: true})
	if got := r.String("use " + fakeRandom); got != "use "+fakeRandom {
		t.Errorf("String = %q, want it unchanged without the entropy rule", got)
	}
	if got := r.String("t " + fakeGHP); got != "t [REDACTED:github-token]" {
		t.Errorf("String = %q, want the named pattern still applied", got)
	}
}

func TestFindSortedAndDisjoint(t *testing.T) {
	in := "A=" + fakeGHP + " DB_PASSWORD=" + fakeRandom + " <private>x</private> " + fakeJWT
	fs := New(Options{}).Find(in)
	if len(fs) != 4 {
		t.Fatalf("Find = %d findings %+v, want 4", len(fs), fs)
	}
	for i := 1; i < len(fs); i++ {
		if fs[i].Start < fs[i-1].End {
			t.Errorf("findings %d and %d overlap: %+v %+v", i-1, i, fs[i-1], fs[i])
		}
	}
	if got, want := fs[1].Kind, KindPassword; got != want {
		t.Errorf("kind of a random value named DB_PASSWORD = %q, want %q", got, want)
	}
}

func TestIdempotent(t *testing.T) {
	r := New(Options{})
	in := strings.Join([]string{
		"export ANTHROPIC_API_KEY=" + fakeAnthropic, fakePEM, "postgres://a:b1c2d3@h/db",
		"<private>x</private>", "password: hunter2", fakeRandom, fakeJWT,
	}, "\n")
	once := r.String(in)
	if twice := r.String(once); twice != once {
		t.Errorf("String(String(x)) != String(x):\n once %q\ntwice %q", once, twice)
	}
}

func TestTokenKind(t *testing.T) {
	tests := []struct{ tok, want string }{
		{"xoxb-2938475610-4857392018475-q8zr2lkp9wxv3nmt7yhb4jcd", "slack-token"},
		{fakeGHP, "github-token"},
		{"deploy-q8zr2lkp9wxv3nmt7yhb4jcd8k2m", KindHighEntropy},
		{"gadget-port-for-service-hk39-is-939", ""},
		{"auth-moved-to-auth-package", ""},
		{"short", ""},
		{"the token is " + fakeGHP, ""}, // not one token: Find's matter
		{hex.EncodeToString([]byte(fakeGHP)), "github-token"},
		{b64([]byte("AWS " + fakeAWSID)), "aws-access-key"},
		{"4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2", ""},
		{"deploy-notes-for-the-staging-cluster", ""},
	}
	for _, tt := range tests {
		if got := TokenKind(tt.tok); got != tt.want {
			t.Errorf("TokenKind(%q) = %q, want %q", tt.tok, got, tt.want)
		}
	}
}
