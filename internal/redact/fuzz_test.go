package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact/encodetest"
)

// fuzzSecrets are credentials that must be redacted whatever surrounds
// them, given a space or newline on each side. For the PEM block, the key
// material is what must not survive.
func fuzzSecrets() []struct{ text, mustGo string } {
	out := []struct{ text, mustGo string }{
		{fakePEM, "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB"},
	}
	for _, s := range []string{fakeAnthropic, fakeOpenAI, fakeOpenAIOld, fakeAWSID, fakeGCPKey, fakeGHP,
		fakeGHPat, fakeGitLab, fakeSlack, fakeStripe, fakeNPM, fakeHF, fakeJWT} {
		out = append(out, struct{ text, mustGo string }{s, s})
	}
	return append(out, []struct{ text, mustGo string }{
		{"the admin password is " + fakePassword, fakePassword},
		{"root pw: " + fakePassword, fakePassword},
		{"signing key " + fakeHex64, fakeHex64[32:]},
		{"BOT=" + fakeGHPHead + "\n" + fakeGHPTail, fakeGHPTail},
		{`"` + fakeGHPHead + `" + "` + fakeGHPTail + `"`, fakeGHPTail},
		{hex.EncodeToString([]byte(fakeGHP)), hex.EncodeToString([]byte(fakeGHP))},
		{b64([]byte(b64([]byte(fakeAWSID)))), b64([]byte(b64([]byte(fakeAWSID))))},
		{encodetest.EscapeAll(fakeGHP, "%%%02X"), encodetest.EscapeAll(fakeGHP, "%%%02X")},
		{encodetest.EscapeAll(fakeAWSID, `\x%02x`), encodetest.EscapeAll(fakeAWSID, `\x%02x`)},
		{"Basic " + b64([]byte("ci:hunter2")), b64([]byte("ci:hunter2"))},
		{encodetest.EscapeAll(fakeGHP, "&#x%x;"), encodetest.EscapeAll(fakeGHP, "&#x%x;")[60:]},
		{encodetest.EscapeAll(fakeAWSID, `\%03o`), encodetest.EscapeAll(fakeAWSID, `\%03o`)[40:]},
		{encodetest.EscapeAll(fakeGHP, `\0%03o`), encodetest.EscapeAll(fakeGHP, `\0%03o`)[100:]},
		{encodetest.EscapeAll(fakeGHP, `\U%08x`), encodetest.EscapeAll(fakeGHP, `\U%08x`)[200:]},
		{encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeGHP)))), "%%%02X"), encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeGHP)))), "%%%02X")[200:]},
	}...)
}

// FuzzString checks that a seeded secret never survives, whatever text
// surrounds it, that redaction never panics, and that it is idempotent.
func FuzzString(f *testing.F) {
	f.Add("export KEY=", uint8(0), "\nnext line", false)
	f.Add(`{"token": "`, uint8(3), `"}`, true)
	f.Add("<private>", uint8(6), "</private> tail", false)
	f.Add("-----BEGIN CERTIFICATE-----", uint8(0), "-----END CERTIFICATE-----", true)
	f.Add("postgres://u:", uint8(9), "@host/db", false)
	f.Add("data:image/png;base64,", uint8(12), "==", true)
	r := New(Options{})
	secrets := fuzzSecrets()
	f.Fuzz(func(t *testing.T, prefix string, which uint8, suffix string, newline bool) {
		sec := secrets[int(which)%len(secrets)]
		sep := " "
		if newline {
			sep = "\n"
		}
		if strings.Contains(prefix, sec.mustGo) || strings.Contains(suffix, sec.mustGo) {
			t.Skip()
		}
		in := prefix + sep + sec.text + sep + suffix
		out := r.String(in)
		if strings.Contains(out, sec.mustGo) {
			t.Fatalf("String(%q) = %q: the secret survived", in, out)
		}
		if again := r.String(out); again != out {
			t.Fatalf("not idempotent:\n once %q\ntwice %q", out, again)
		}
	})
}

// FuzzFind checks the findings on any text: inside it, sorted, disjoint,
// and String applied twice gives what it gave once.
func FuzzFind(f *testing.F) {
	f.Add("DB_PASSWORD=hunter2 and " + fakeGHP)
	f.Add("<private>a<private>b</private>")
	f.Add("-----BEGIN -----BEGIN RSA PRIVATE KEY-----\nabc")
	f.Add("https://u:p@h https://:@ x://@ ://a:b@c")
	f.Add("curl -u a:Sup3rS3cret | sshpass -p \"x y\" ; mysql -pS3cr3t&&docker login -p")
	f.Add(`"password": "a b c" --token x1y2z3w4 Authorization: Bearer ` + fakeRandom)
	f.Add("\xff\xfe sk-ant-\x00 eyJ.eyJ. " + fakeJWT[:40])
	f.Add("the admin password for the staging dashboard is " + fakePassword + ".\nroot pw: Hx9!kq27z")
	f.Add("Le mot de passe : Zq8#rT4vLm 密码是Zq8#rT4vLm，パスワードは x")
	f.Add("HMAC key " + fakeHex64 + "\ncache key " + fakeHex64 + "\nkey commit " + fakeHex64[:40])
	f.Add("the dump " + hex.EncodeToString([]byte(fakeGHP)) + " %67%68%70%5F \\u0067 \\x41\\x4 \\u{41} Basic Y2k6aHVudGVyMg==\n" + b64([]byte(fakePEM)))
	f.Add("BOT=" + fakeGHPHead + "\n  " + fakeGHPTail + "\n\"" + fakeGHPHead[:9] + "\" +\n\"" + fakeGHPHead[9:] + "\"")
	r := New(Options{})
	f.Fuzz(func(t *testing.T, s string) {
		fs := r.Find(s)
		for i, fd := range fs {
			if fd.Start < 0 || fd.End > len(s) || fd.Start >= fd.End {
				t.Fatalf("finding %d %+v out of bounds of %d bytes", i, fd, len(s))
			}
			if i > 0 && fd.Start < fs[i-1].End {
				t.Fatalf("findings %d and %d overlap: %+v %+v", i-1, i, fs[i-1], fd)
			}
			nl := strings.LastIndexByte(s[:fd.Start], '\n')
			if line := strings.Count(s[:fd.Start], "\n") + 1; fd.Line != line || fd.Column != fd.Start-nl {
				t.Fatalf("finding %d %+v: want line %d, column %d", i, fd, line, fd.Start-nl)
			}
		}
		for _, fd := range Find(s) {
			if fd.Kind == KindPrivate {
				t.Fatalf("Find(%q) reports a private span as a secret", s)
			}
		}
		once := r.String(s)
		if twice := r.String(once); twice != once {
			t.Fatalf("not idempotent on %q:\n once %q\ntwice %q", s, once, twice)
		}
	})
}

// FuzzEncoded checks the decoders on any text: decode never panics, gives
// text within its bound or nothing, and undoes hex and base64 of text;
// unescape maps every byte it writes to a byte of its input, in order,
// and undoes the percent-encoding, octal (C's and echo -e's), \U escapes
// and HTML character references of text.
func FuzzEncoded(f *testing.F) {
	f.Add("DB_PASSWORD=hunter2\nGITHUB_TOKEN=" + fakeGHP + "\n")
	f.Add(fakePEM)
	f.Add("ci:Tr0ub4dor&24464")
	f.Add("<server><password>Xk9mQ2vLp7</password></server>")
	f.Add(b64([]byte(fakePEM)))
	f.Add(`{"t": "\u0067hp_x", "u": "\u{1F600}", "v": "\uD83D\uDE00", "w": "\\u0041", "x": "\x41\x4"}`)
	f.Add("https://example.com/a%2Fb?q=hello%20world%21&p=password%3D%zz%4")
	f.Add("0x414b49415a375158345257324c4d394b44335056")
	f.Add("<p>&#x67;&#104;p&lowbar;x &amp;amp; &#1 &#x; &CounterClockwiseContourIntegral; &nosuch; &#128;&#xD800;&#99999999;</p>")
	f.Add(`"\101\113\111\101 \0 \1 \400 \U00000067\U0001F600\U00110000\U0000"`)
	f.Add(`echo -e '\0101\0113\0111\0101 \0123\0644 \04001 \0777 \00 \\0101 \0101'`)
	f.Add(encodetest.Wrap(b64([]byte("the deploy bot's login: GITHUB_TOKEN="+fakeGHP+"\n")), 70))
	f.Add(encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeAWSID)))), "%%%02X"))
	f.Fuzz(func(t *testing.T, s string) {
		if out, ok := decode(nil, []byte(s), false); ok && (len(out) > maxDecoded || !isText(out, false)) {
			t.Fatalf("decode(%q) = %q: not text within %d bytes", s, out, maxDecoded)
		}
		text, at := unescape(s)
		if len(at) != len(text)+1 || at[len(text)] != len(s) {
			t.Fatalf("unescape(%q): %d offsets for %d bytes, last %d", s, len(at), len(text), at[len(at)-1])
		}
		for i := 1; i < len(at); i++ {
			if at[i] < at[i-1] || at[i-1] >= len(s) {
				t.Fatalf("unescape(%q): offsets %v out of order or bounds", s, at)
			}
		}
		if !isText([]byte(s), false) || len(s) < 12 || len(s) > maxDecoded {
			return
		}
		for _, enc := range []string{b64([]byte(s)), base64.RawURLEncoding.EncodeToString([]byte(s)), hex.EncodeToString([]byte(s))} {
			if len(enc) < minHex && allHex(enc) || allHex(enc) != (enc == hex.EncodeToString([]byte(s))) {
				continue // hex too short to be read as hex, or base64 that reads as hex
			}
			if out, ok := decode(nil, []byte(enc), false); !ok || string(out) != s {
				t.Fatalf("decode(%q) = %q, %v, want %q", enc, out, ok, s)
			}
		}
		for _, format := range []string{"%%%02X", `\%03o`, `\0%03o`} {
			if got, _ := unescape(encodetest.EscapeAll(s, format)); got != s {
				t.Fatalf("unescape(%q of %q) = %q", format, s, got)
			}
		}
		for _, format := range []string{"&#%d;", "&#x%X", `\U%08x`} {
			if c1Control(s) {
				break // &#128; is the euro sign, as HTML reads it
			}
			if got, _ := unescape(escapeRunes(s, format)); got != s {
				t.Fatalf("unescape(%q of %q) = %q", format, s, got)
			}
		}
	})
}

// escapeRunes writes each character of s in format: "&#%d;" for HTML,
// `\U%08x` for Python or C.
func escapeRunes(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, format, r)
	}
	return b.String()
}

// c1Control reports whether s holds a character from U+0080 to U+009F,
// which HTML's numeric references do not write.
func c1Control(s string) bool {
	for _, r := range s {
		if 0x80 <= r && r <= 0x9f {
			return true
		}
	}
	return false
}
