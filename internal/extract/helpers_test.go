package extract

import (
	"context"
	"os"
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
	d, err := transcript.Build(context.Background(), transcript.NewReader(f, 0), transcript.Options{Redact: redact.New(redact.Options{}).String})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
