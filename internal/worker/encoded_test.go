package worker

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact/encodetest"
)

// encodedTranscriptSecrets are the secrets of testdata/encoded.jsonl,
// each written in an encoding: base64 (wrapped at 76 columns, as
// base64(1) writes it), base64 twice, hex, percent-encoding,
// JSON, Python, octal (C's and echo -e's) and \U escapes, HTML character references, an HTTP
// Basic header, a data: URL of an env file and the percent-encoding of
// the base64 of the hex of a token.
func encodedTranscriptSecrets() map[string]string {
	ghp := "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	aws := "AKIA" + "Z7QX4RW2LM9KD3PV"
	pem := "-----BEGIN " + "OPENSSH PRIVATE KEY-----\n" +
		"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
		"QyNTUxOQAAACDkq0Hc3RjsMBVa2Pvuvr1pXDm5zQl9S6T6oYKs6Hkq0wAAAJBbb8TaW2/E\n" +
		"-----END " + "OPENSSH PRIVATE KEY-----\n"
	b64 := base64.StdEncoding.EncodeToString
	return map[string]string{
		"BASIC":  b64([]byte("ci-bot:" + "Tr0ub4dor" + "&24464")),
		"PEM64":  encodetest.Wrap(b64([]byte(pem)), 76),
		"HTML":   encodetest.EscapeAll(ghp, "&#x%x;"),
		"OCT":    encodetest.EscapeAll(aws, `\%03o`),
		"ECHO":   encodetest.EscapeAll(ghp, `\0%03o`),
		"BIGU":   encodetest.EscapeAll(ghp, `\U%08x`),
		"THREE":  encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(ghp)))), "%%%02X"),
		"UESC":   `\u0067` + ghp[1:],
		"PCT":    strings.ReplaceAll(ghp, "_", "%5F"),
		"HEX":    hex.EncodeToString([]byte(ghp)),
		"XESC":   encodetest.EscapeAll(aws, `\x%02x`),
		"PCTALL": encodetest.EscapeAll("password="+"Tr0ub4dor"+"&24464", "%%%02X"),
		"ENV64":  b64([]byte("DATABASE_URL=postgres://app:" + "s3cr3tP4ss@db/app\nAPI_TOKEN=" + ghp + "\n")),
		"TWICE":  b64([]byte(b64([]byte(aws)))),
	}
}

// TestTranscriptEncodedSecretsNeverReachTheModel runs the worker with
// the Anthropic extractor on a session whose prompts hold secrets
// encoded: none of them, nor the second half of any, is in the request.
func TestTranscriptEncodedSecretsNeverReachTheModel(t *testing.T) {
	secrets := encodedTranscriptSecrets()
	data, err := os.ReadFile(filepath.Join("testdata", "encoded.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	text := os.Expand(string(data), func(k string) string { return jsonString(secrets[k]) })
	tr := filepath.Join(t.TempDir(), "enc1.jsonl")
	if err := os.WriteFile(tr, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	req := extractionRequest(t, "enc1", tr)
	for _, want := range []string{"registry.internal", "deploy job", "bot token", "smoke test", "[REDACTED:"} {
		if !strings.Contains(req, want) {
			t.Errorf("the request lacks %q: the digest was not sent:\n%s", want, digestOf(req))
		}
	}
	for k, s := range secrets {
		s = jsonString(s) // as the request writes it
		for _, part := range []string{s, s[len(s)/2:]} {
			if strings.Contains(req, part) {
				t.Errorf("the request holds %s (or its second half %q):\n%s", k, part, digestOf(req))
			}
		}
	}
}

// jsonString is s as a JSON string writes it, without the quotes; '&',
// '<' and '>' are written as they are, as the request writes them.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	q := strings.TrimSuffix(b.String(), "\n")
	return q[1 : len(q)-1]
}
