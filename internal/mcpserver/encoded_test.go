package mcpserver_test

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact/encodetest"
)

// Fake secrets in the encodings an injected agent or a pasted log writes
// them in: none is a secret to the eye, each decodes to one.
var (
	b64 = base64.StdEncoding.EncodeToString
	pem = "-----BEGIN " + "RSA PRIVATE KEY-----\n" +
		"MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB\n" +
		"aFDrBz9vFqU4yI8Wmq1TyJzTfdv6ZTy0P3oPvG0Jm1iLdmJoHX8QoZ2pJgqOmdZa\n" +
		"-----END " + "RSA PRIVATE KEY-----\n"
	encodedSecrets = []struct {
		name, text, kind string
	}{
		{"base64", b64([]byte(fakeGHP)), "GitHub token"},
		{"base64url", base64.RawURLEncoding.EncodeToString([]byte("aws " + fakeAWS)), "AWS access key"},
		{"base64 twice", b64([]byte(b64([]byte(fakeGHP)))), "GitHub token"},
		{"base64 of a PEM key", b64([]byte(pem)), "private key"},
		{"hex", hex.EncodeToString([]byte(fakeGHP)), "GitHub token"},
		{"hex with 0x", "0x" + hex.EncodeToString([]byte(fakeAWS)), "AWS access key"},
		{"percent", strings.ReplaceAll(fakeGHP, "_", "%5F"), "GitHub token"},
		{"JSON escape", `"\u0067` + fakeGHP[1:] + `"`, "GitHub token"},
		{"JS hex escape", `'\x41` + fakeAWS[1:] + `'`, "AWS access key"},
		{"HTTP Basic", "Basic " + b64([]byte("deploy:hunter2")), "password"},
		{"data URL of a .env", "data:text/plain;base64," + b64([]byte("DB_PASSWORD=hunter2\nPORT=5432\n")), "password"},
		{"base64 wrapped at 70", encodetest.Wrap(b64([]byte("the deploy bot's login: GITHUB_TOKEN="+fakeGHP+"\n")), 70), "GitHub token"},
		{"base64 wrapped at 50", encodetest.Wrap(b64([]byte("the deploy bot's login: GITHUB_TOKEN="+fakeGHP+"\n")), 50), "GitHub token"},
		{"HTML references", "&#x67;&#x68;&#x70;&#x5f;" + fakeGHP[4:], "GitHub token"},
		{"HTML decimal references", encodetest.EscapeAll(fakeAWS, "&#%d;"), "AWS access key"},
		{"octal escapes", `"` + encodetest.EscapeAll(fakeAWS, `\%03o`) + `"`, "AWS access key"},
		{"echo -e octal escapes", `echo -e '` + encodetest.EscapeAll(fakeGHP, `\0%03o`) + `'`, "GitHub token"},
		{"U escapes", `"\U00000067` + fakeGHP[1:] + `"`, "GitHub token"},
		{"percent of base64 of hex", encodetest.EscapeAll(b64([]byte(hex.EncodeToString([]byte(fakeGHP)))), "%%%02X"), "GitHub token"},
	}
)

// TestRememberRefusesEncodedSecrets sends secrets encoded (base64,
// base64url, twice, wrapped at 70 and 50 columns, hex, percent, JSON, JS,
// octal (C's and echo -e's) and \U escapes, HTML references, an HTTP Basic header, a data:
// URL, percent of base64 of hex) through remember, in each field: every call is
// refused naming the kind of secret the encoding hides, and no file of
// the project or the state holds the encoded text.
func TestRememberRefusesEncodedSecrets(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile})
	var sent []string
	for _, e := range encodedSecrets {
		sent = append(sent, e.text)
		for _, field := range []string{"fact", "description", "why"} {
			t.Run(e.name+" in "+field, func(t *testing.T) {
				args := map[string]any{
					"description": "How the release job reaches the package registry",
					"fact":        "The release job publishes after logging in.",
				}
				args[field] = "It uses " + e.text + " to log in."
				res := f.call("remember", args)
				got := textOf(res)
				want := e.kind + ": refused, secrets are never stored"
				if !res.IsError || !strings.Contains(got, want) {
					t.Errorf("remember %s = %q (error %v), want an error containing %q", field, got, res.IsError, want)
				}
				if strings.Contains(got, e.text) {
					t.Errorf("remember %s: the error %q holds the encoded secret", field, got)
				}
			})
		}
	}
	if n := f.count(); n != 1 {
		t.Errorf("the vault holds %d memories after the refused writes, want 1", n)
	}
	for _, dir := range []string{f.root, f.home} {
		noSecrets(t, dir, sent...)
	}
}

// TestReadsRedactEncodedSecrets: a vault file written by hand with
// encoded secrets is given to the agent by get and recall with each
// encoded run redacted, the kind of what it hid in its marker.
func TestReadsRedactEncodedSecrets(t *testing.T) {
	var body strings.Builder
	body.WriteString("The registry login, as pasted from the CI log:\n")
	for _, e := range encodedSecrets {
		body.WriteString(e.name + ": " + e.text + "\n")
	}
	f := newFixture(t, map[string]string{
		".memory/registry-login.md": mem("registry-login", "reference", "The package registry login of the release job", body.String()),
	})
	answers := map[string]string{
		"get":    textOf(f.call("get", map[string]any{"name": "registry-login"})),
		"recall": textOf(f.call("recall", map[string]any{"query": "package registry login release job"})),
	}
	for tool, got := range answers {
		if !strings.Contains(got, "[REDACTED:github-token]") || !strings.Contains(got, "as pasted from the CI log") {
			t.Errorf("%s did not give the memory with its secrets redacted: %q", tool, got)
		}
		for _, e := range encodedSecrets {
			if strings.Contains(got, encodedRun(e.text)) {
				t.Errorf("%s gave the agent the %s secret: %q", tool, e.name, got)
			}
		}
	}
}

// encodedRun is text without what only frames its encoded run (an auth
// scheme, a data: URL's header, quotes): what must not be given.
func encodedRun(text string) string {
	for _, p := range []string{"Basic ", "data:text/plain;base64,"} {
		text = strings.TrimPrefix(text, p)
	}
	return strings.Trim(text, `"'`)
}

// TestMemoryCreateRefusesEncodedName: a file name is a memory's name,
// and the hex of a token is a valid slug; the memory tool refuses it, and
// no file is named for it.
func TestMemoryCreateRefusesEncodedName(t *testing.T) {
	f := newFixture(t, nil)
	name := hex.EncodeToString([]byte(fakeAWS))
	res := f.call("memory", map[string]any{
		"command": "create", "path": "/memories/" + name + ".md",
		"file_text": "# Release notes\nThe release job publishes after logging in.\n",
	})
	got := textOf(res)
	if !res.IsError || !strings.Contains(got, "AWS access key") {
		t.Errorf("memory create %s.md = %q (error %v), want an error naming an AWS access key", name, got, res.IsError)
	}
	if f.exists(".memory/" + name + ".md") {
		t.Errorf(".memory/%s.md was written", name)
	}
	noSecrets(t, f.root, name)
	noSecrets(t, f.home, name)
}

// TestMemoryToolErrorKeepsNoSecret checks that the memory tool's answer to
// a path it refuses repeats no secret the path holds, nor the part of one
// a suggested name would cut from it: the hex of a GitHub token is too
// long for a name, and the answer once suggested its first 64 digits.
func TestMemoryToolErrorKeepsNoSecret(t *testing.T) {
	f := newFixture(t, nil)
	name := hex.EncodeToString([]byte(fakeGHP))
	for _, cmd := range []map[string]any{
		{"command": "create", "path": "/memories/" + name + ".md", "file_text": "# Notes\nThe release job publishes.\n"},
		{"command": "view", "path": "/memories/" + name + ".md"},
		{"command": "str_replace", "path": "/memories/" + name + ".md", "old_str": "a", "new_str": "b"},
	} {
		got := textOf(f.call("memory", cmd))
		for _, part := range []string{name, name[:48], name[len(name)-48:]} {
			if strings.Contains(got, part) {
				t.Errorf("memory %s answered %q: it holds %q, part of the token's hex", cmd["command"], got, part)
			}
		}
	}
}
