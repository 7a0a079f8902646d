package staleness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

func TestNamesInPlace(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "src"), 0o755)
	os.WriteFile(filepath.Join(root, "src", "cache.go"), []byte("package cache\n\nconst cacheTTL = 300 // tuned\n"), 0o644)
	anchored := memory.Anchors{Files: []memory.FileAnchor{{Path: "src/cache.go", SHA256: "0123456789ab"}}}
	tests := []struct {
		kind, body string
		want       bool
	}{
		{"path and identifier in place", "The TTL is `cacheTTL` in `src/cache.go`.", true},
		{"identifier gone", "The TTL is `cacheTimeout` in `src/cache.go`.", false},
		{"identifier only as part of a word", "The TTL is `cacheT` in `src/cache.go`.", false},
		{"path gone", "See `src/old.go` and `cacheTTL`.", false},
		{"names nothing", "The cache is tuned by hand.", false},
	}
	for _, tt := range tests {
		m := &memory.Memory{Header: memory.Header{Anchors: anchored}, Body: tt.body}
		if got := NamesInPlace(root, m); got != tt.want {
			t.Errorf("%s: NamesInPlace = %v, want %v", tt.kind, got, tt.want)
		}
	}
}
