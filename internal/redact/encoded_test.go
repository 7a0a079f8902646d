package redact

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact/encodetest"
)

var b64 = base64.StdEncoding.EncodeToString

func TestStringEncodedPositives(t *testing.T) {
	env := "DATABASE_URL=postgres://app:s3cr3tP4ss@db/app\nGITHUB_TOKEN=" + fakeGHP + "\n"
	tests := []struct {
		name, in, want string
	}{
		{"base64", "the blob " + b64([]byte(fakeGHP)) + " here", "the blob [REDACTED:github-token] here"},
		{"base64url", "id=" + base64.RawURLEncoding.EncodeToString([]byte(">>>"+fakeAWSID)), "id=[REDACTED:aws-access-key]"},
		{"base64 of an assignment", "blob: " + b64([]byte("password: hunter2")), "blob: [REDACTED:password]"},
		{"base64 twice", "v " + b64([]byte(b64([]byte(fakeGHP)))), "v [REDACTED:github-token]"},
		{"hex of base64", "v " + hex.EncodeToString([]byte(b64([]byte(fakeGHP)))), "v [REDACTED:github-token]"},
		{"base64 of a PEM key", "key: " + b64([]byte(fakePEM)), "key: [REDACTED:private-key]"},
		{"base64 wrapped at 76", "-----\n" + encodetest.Wrap(b64([]byte(fakePEM+"\n")), 76) + "\nend",
			"-----\n[REDACTED:private-key]\nend"},
		{"base64 wrapped and indented", "key: |\n  " + strings.ReplaceAll(encodetest.Wrap(b64([]byte(env)), 64), "\n", "\n  ") + "\nnext: 1",
			"key: |\n  [REDACTED:github-token]\nnext: 1"},
		{"hex", "dump " + hex.EncodeToString([]byte(fakeGHP)), "dump [REDACTED:github-token]"},
		{"hex in a path", "/memories/" + hex.EncodeToString([]byte(fakeGHP)) + ".md", "/memories/[REDACTED:github-token].md"},
		{"hex after a name", "key_" + hex.EncodeToString([]byte(fakeAWSID)) + " set", "key_[REDACTED:aws-access-key] set"},
		{"hex upper with 0x", "0x" + strings.ToUpper(hex.EncodeToString([]byte(fakeAWSID))), "[REDACTED:aws-access-key]"},
		{"percent in a token", strings.ReplaceAll(fakeGHP, "_", "%5F"), "[REDACTED:github-token]"},
		{"percent every byte", "token=" + encodetest.EscapeAll(fakeGHP, "%%%02X") + "&x=1", "token=[REDACTED:github-token]&x=1"},
		{"percent-encoded assignment", "q=password%3DTr0ub4dor%2624464&page=2", "q=password%3D[REDACTED:password]&page=2"},
		{"JSON escape", `{"t": "\u0067` + fakeGHP[1:] + `"}`, `{"t": "[REDACTED:github-token]"}`},
		{"JSON escapes every byte, in prose", "the admin password is " + encodetest.EscapeAll(fakePassword, `\u%04x`) + " ok",
			"the admin password is [REDACTED:password] ok"},
		{"JS brace escape", `'\u{41}` + fakeAWSID[1:] + `'`, `'[REDACTED:aws-access-key]'`},
		{"C hex escapes", `b"` + encodetest.EscapeAll(fakeAWSID, `\x%02x`) + `"`, `b"[REDACTED:aws-access-key]"`},
		{"Basic header alone", "-H 'X-Registry: Basic " + b64([]byte("ci:hunter2")) + "'", "-H 'X-Registry: Basic [REDACTED:password]'"},
		{"Authorization Basic", "Authorization: Basic dXNlcjpodW50ZXIy", "Authorization: Basic [REDACTED:password]"},
		{"Basic of a Stripe key and no password", "basic " + b64([]byte(fakeStripe+":")), "basic [REDACTED:stripe-key]"},
		{"data URL of a .env", "data:text/plain;base64," + b64([]byte("DB_PASSWORD=hunter2\n")), "data:text/plain;base64,[REDACTED:password]"},
		{"data URL of an SVG holding a key", "data:image/svg+xml;base64," + b64([]byte("<svg><!-- "+fakeGHP+" --></svg>")),
			"data:image/svg+xml;base64,[REDACTED:github-token]"},
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

// TestStringEncodedNegatives: what memories hold that decodes to no secret
// is left as it was: hashes, ids, escapes of ordinary text, media. Without
// the entropy rule nothing of it is redacted; with it, base64 of ordinary
// text stays redacted as before (a base64 of a short random password reads
// as ordinary text once decoded, so decoding never clears a run).
func TestStringEncodedNegatives(t *testing.T) {
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
	tests := []struct {
		name, in string
		entropy  bool // left unchanged by the default Redactor too, not only without the entropy rule
	}{
		{"git commit", "commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 (HEAD -> main)", true},
		{"sha256 anchor", "anchors:\n  files:\n    - path: src/deploy.sh\n      sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n", true},
		{"git object path", ".git/objects/4f/2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 and refs/heads/main", true},
		{"hash in a path", "cache/sha256/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855/data", true},
		{"sha512 in hex", "sha512sum: cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e", true},
		{"uuid", "session fe5e1c67-53e7-4862-81ae-d0e013e3270b started", true},
		{"hex of ordinary text", "hex " + hex.EncodeToString([]byte("hello world, this is fine")), true},
		{"percent in a URL", "see https://example.com/search?q=hello%20world%21&lang=en and 100%25 of it", true},
		{"JSON HTML escapes", `{"html": "\u003cdiv class=\u0022x\u0022\u003eok\u003c/div\u003e"}`, true},
		{"printf formats", `fmt.Printf("%5d %02x %s\n", n, b, s)`, true},
		{"windows path", `C:\Users\app\x64\Release\app.exe`, true},
		{"escaped backslash", `"\\u0067hp_ is how a token starts"`, true},
		{"png data URI", "data:image/png;base64," + png, true},
		{"basic words", "Basic usage: run Basic authentication tests. basic Y29uZmlndXJhdGlvbg==", false},
		{"base64 of ordinary text", "blob " + b64([]byte("the quick brown fox jumps over the lazy dog")), false},
		{"base64 of a cert", b64([]byte("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n")), false},
		{"long identifier", "TestDigestSplitsChunksAtTurnBoundariesUnderBudget internationalization", true},
	}
	plain, noEntropy := New(Options{}), New(Options{NoEntropy: true})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := noEntropy.String(tt.in); got != tt.in {
				t.Errorf("String(%q) without entropy\n got %q\nwant it unchanged", tt.in, got)
			}
			if got := plain.String(tt.in); tt.entropy && got != tt.in {
				t.Errorf("String(%q)\n got %q\nwant it unchanged", tt.in, got)
			}
		})
	}
}

// TestEncodedJWTUnchanged: a JSON Web Token is base64url of JSON; it is
// redacted as the token it is, as before, not as what its parts hold.
func TestEncodedJWTUnchanged(t *testing.T) {
	payload := base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"ci","password":"hunter2"}`))
	parts := strings.Split(fakeJWT, ".")
	jwt := parts[0] + "." + payload + "." + parts[2]
	for _, in := range []string{fakeJWT, jwt} {
		if got, want := String("cookie "+in), "cookie [REDACTED:jwt]"; got != want {
			t.Errorf("String(cookie %q) = %q, want %q", in, got, want)
		}
	}
}

// TestFindEncodedNamesTheKind: a refused write names the secret an
// encoding hides, on the line where the encoded run starts.
func TestFindEncodedNamesTheKind(t *testing.T) {
	text := "line one\nthe dump has " + hex.EncodeToString([]byte(fakeGHP)) + "\nkey:\n" + encodetest.Wrap(b64([]byte(fakePEM)), 76) + "\n"
	got := Find(text)
	want := []Finding{{Kind: "github-token", Line: 2, Column: 14}, {Kind: KindPrivateKey, Line: 4, Column: 1}}
	if len(got) != len(want) {
		t.Fatalf("Find = %+v, want %d findings", got, len(want))
	}
	for i, w := range want {
		if got[i].Kind != w.Kind || got[i].Line != w.Line || got[i].Column != w.Column {
			t.Errorf("Find[%d] = %+v, want kind %s at %d:%d", i, got[i], w.Kind, w.Line, w.Column)
		}
	}
}

// TestDecodeBounded: nesting stops at maxDepth, and a run longer than
// maxDecoded is judged by its first maxDecoded bytes.
func TestDecodeBounded(t *testing.T) {
	four := fakeGHP
	for range maxDepth + 1 {
		four = b64([]byte(four))
	}
	if got := New(Options{NoEntropy: true}).String(four); got != four {
		t.Errorf("String(base64 %d times) = %q, want it unchanged: %d levels are decoded", maxDepth+1, got, maxDepth)
	}
	late := b64([]byte(strings.Repeat("plain text. ", maxDecoded/12+10) + fakeGHP))
	if got := New(Options{NoEntropy: true}).String(late); got != late {
		t.Errorf("String(a long base64 with a token past %d bytes) changed it, want it judged by its first %d bytes", maxDecoded, maxDecoded)
	}
	long := fakeGHP + strings.Repeat(" plain text.", maxDecoded/12+10)
	for _, early := range []string{b64([]byte(long)), hex.EncodeToString([]byte(long))} {
		if got := New(Options{}).String(early); got != "[REDACTED:github-token]" {
			t.Errorf("String(a long run of %.10s… encoding a token first) = %.60q…, want it redacted", early, got)
		}
	}
	if odd := hex.EncodeToString([]byte(fakeGHP)) + "7"; New(Options{}).String(odd) != odd {
		t.Errorf("String(hex with an odd digit out) changed it, want it kept: it encodes no bytes")
	}
}
