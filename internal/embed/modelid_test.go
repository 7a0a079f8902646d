package embed

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

// TestModelID: the id the vectors are stored under names the model.bin
// built in, so that new weights packed without `go generate` writing
// modelid.go fail here, not by scoring new queries against old vectors.
func TestModelID(t *testing.T) {
	sum := sha256.Sum256([]byte(packed))
	if got, want := modelSum, hex.EncodeToString(sum[:8]); got != want {
		t.Errorf("modelSum = %q, want %q, the start of model.bin's SHA-256: run `go generate ./internal/embed`", got, want)
	}
	for _, m := range []interface{ ModelID() string }{mustLoad(t), NewLazy(), NewLazy().Short(8)} {
		if got := m.ModelID(); got != ModelID {
			t.Errorf("%T.ModelID() = %q, want %q", m, got, ModelID)
		}
	}
}
