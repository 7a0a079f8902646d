package extract

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// digestFile builds the digest of a transcript file, redacted as the
// worker builds it.
func digestFile(t testing.TB, path string) *transcript.Digest {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return digestReader(t, f, redact.New(redact.Options{}).String)
}

// digestString builds the digest of transcript text, not redacted.
func digestString(t testing.TB, data string) *transcript.Digest {
	t.Helper()
	return digestReader(t, strings.NewReader(data), nil)
}

func digestReader(t testing.TB, r io.Reader, red func(string) string) *transcript.Digest {
	t.Helper()
	d, err := transcript.Build(context.Background(), transcript.NewReader(r, 0), transcript.Options{Redact: red})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// tryDigest builds the digest of a transcript file when it exists.
func tryDigest(t testing.TB, path string) (*transcript.Digest, bool) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		return nil, false
	}
	return digestFile(t, path), true
}

// mentions is the text of a digest, for [newPaths].
func mentions(text string) func() string { return func() string { return text } }
