//go:build unix

package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRecallUnhashableAnchor: a named pipe in an anchored file's place is
// not opened to be read, which waits for a writer that never comes: the
// recall answers at once, the memory told as not checked (it hung before),
// and so does a file past the bound of what is hashed (1 TB, sparse).
func TestRecallUnhashableAnchor(t *testing.T) {
	for _, tt := range []struct {
		name, want string
		replace    func(path string) error
	}{
		{"named pipe", "internal/auth/service.go cannot be read: not a regular file", func(p string) error {
			return syscall.Mkfifo(p, 0o644)
		}},
		{"a terabyte", "internal/auth/service.go is too large to check (1 TB, past 64 MB)", func(p string) error {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			return os.Truncate(p, 1<<40)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, recallVault)
			p := filepath.Join(f.root, "internal", "auth", "service.go")
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := tt.replace(p); err != nil {
				t.Skipf("cannot make it here: %v", err)
			}
			var out recallOut
			f.ok("recall", map[string]any{"query": "authentication billing"}, &out)
			if len(out.Memories) == 0 || out.Memories[0].Name != "auth-lives-in-auth" || len(out.Memories[0].Stale) == 0 ||
				!strings.Contains(out.Memories[0].Stale[0], tt.want) {
				t.Errorf("recall(authentication) = %+v, want auth-lives-in-auth told %q", out.Memories, tt.want)
			}
		})
	}
}
