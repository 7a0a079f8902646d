package redact

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// digestLike returns about n bytes of text shaped like a session digest:
// prompts, prose, tool lines with paths and commands, error excerpts,
// hashes and ids, and now and then a credential.
func digestLike(n int) string {
	r := rand.New(rand.NewPCG(7, 11))
	lines := []string{
		"user: the scroll in xterm.js still does not work when the outer page catches the wheel event",
		"assistant: The handler in assets/js/app.js calls preventDefault on every wheel event; I will scope it to the terminal element.",
		"tool: Read internal/transcript/reader.go -> ok",
		"tool: Bash `go test ./internal/... -run TestDigest -count=1` -> error",
		"  ! reader_test.go:88: Offset() = 4096, want 4127",
		"tool: Edit internal/transcript/reader.go -> ok",
		"tool: Grep func (r \\*Reader) Next in internal -> ok",
		"tool: WebFetch https://github.com/xtermjs/xterm.js/issues/1343 -> ok",
		"  | commit 4f2e9c1d0b7a8e6f5d4c3b2a1908f7e6d5c4b3a2 (HEAD -> main) fe5e1c67-53e7-4862-81ae-d0e013e3270b",
		"  | github.com/spf13/cobra v1.10.2 h1:/Xk9vQ2mR7tLw3nB8cD5fG1hJ4kZ6pS0qU2yV8xW7eA=",
		"  | func TestDigestSplitsChunksAtTurnBoundariesUnderBudget(t *testing.T) { password := os.Getenv(\"PW\") }",
		"  | node_modules/.pnpm/@next+swc-darwin-arm64@15.5.2/node_modules/@next/swc-darwin-arm64",
		"assistant: The token bucket refills every second; max_tokens=4096 and the password field is validated server-side.",
	}
	secrets := []string{
		"export GITHUB_TOKEN=" + fakeGHP,
		"DB_PASSWORD=hunter2",
		"postgres://app:s3cr3tP4ss@db.internal:5432/app",
		"Authorization: Bearer " + fakeRandom,
		"<private>my home address</private>",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i%50 == 49 {
			b.WriteString(secrets[r.IntN(len(secrets))])
		} else {
			b.WriteString(lines[r.IntN(len(lines))])
		}
		b.WriteString(fmt.Sprintf(" #%d\n", i))
	}
	return b.String()
}

// BenchmarkString3MB redacts a 3 MB digest-shaped text.
func BenchmarkString3MB(b *testing.B) {
	text := digestLike(3 << 20)
	r := New(Options{})
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}

// BenchmarkStringEncodedLines redacts a 3 MB digest-shaped text in which
// every fifth line holds encoded runs that decode to text: base64 of
// prose, hex of a sentence, a URL with escapes, JSON with \u escapes and,
// now and then, an encoded secret.
func BenchmarkStringEncodedLines(b *testing.B) {
	encoded := []string{
		"  | blob " + b64([]byte("the deploy notes say to run make deploy from a clean tree")),
		"  | hex " + hex.EncodeToString([]byte("hello world, this is fine")),
		"  | GET https://example.com/search?q=hello%20world%21&lang=en%2Dus",
		`  | {"html": "\u003cdiv class=\u0022x\u0022\u003eok\u003c/div\u003e"}`,
		"  | dump " + hex.EncodeToString([]byte(fakeGHP)),
	}
	lines := strings.Split(digestLike(3<<20), "\n")
	for i := 4; i < len(lines); i += 5 {
		lines[i] = encoded[(i/5)%len(encoded)]
	}
	text := strings.Join(lines, "\n")
	r := New(Options{})
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.String(text)
	}
}

// BenchmarkStringNested redacts a 3 MB digest-shaped text in which every
// fifth line holds ordinary text encoded levels times inside itself (so
// that every level is decoded and read), with the nesting bound at
// maxDepth: the cost of one more level, on the text that pays the most
// for it. Percent-encoding shrinks least of the encodings (a window of
// escapes is read again with its context), base64 most of the rest.
func BenchmarkStringNested(b *testing.B) {
	lines := strings.Split(digestLike(3<<20), "\n")
	encodings := []struct {
		name string
		enc  func(string) string
	}{
		{"percent", func(s string) string { return strings.ReplaceAll(s, "%", "%25") }},
		{"base64", func(s string) string { return b64([]byte(s)) }},
	}
	for _, e := range encodings {
		for _, depth := range []int{2, 3, 4} {
			b.Run(fmt.Sprintf("%s/maxDepth=%d", e.name, depth), func(b *testing.B) {
				nested := "the deploy notes%21 run make deploy from a clean tree"
				for range 4 {
					nested = e.enc(nested)
				}
				ls := slices.Clone(lines)
				for i := 4; i < len(ls); i += 5 {
					ls[i] = "  | v " + nested
				}
				text := strings.Join(ls, "\n")
				r := New(Options{})
				r.maxDepth = depth
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					r.String(text)
				}
			})
		}
	}
}
