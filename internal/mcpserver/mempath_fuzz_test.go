package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMemPath resolves arbitrary memory-tool paths: a path accepted names
// the vault folder or one plain file in it (no separator, no dot segment,
// no control character, nothing hidden), and joined to the vault's folder
// it stays in that folder.
func FuzzMemPath(f *testing.F) {
	for _, p := range []string{"/memories", "/memories/", "/memories/use-pnpm.md", "/memories/../secret.md",
		"/memories/%2e%2e/x", "/memories/..%2fx", "/memories/a\\b", "/memories/a.md\x00", "/memories/./a.md",
		"/memories/sub/x.md", "/memoriesX", "memories/a.md", "/memories/.hidden.md", "/memories/MEMORY.md",
		"/memories/%00", "/memories/\u202e.md", "/memories/" + strings.Repeat("a", 300) + ".md"} {
		f.Add(p)
	}
	vault := filepath.Join(string(filepath.Separator)+"v", "vault")
	f.Fuzz(func(t *testing.T, p string) {
		mp, err := parseMemPath(p)
		if err != nil {
			if mp.file != "" {
				t.Fatalf("parseMemPath(%q) failed (%v) but names file %q", p, err, mp.file)
			}
			return
		}
		if mp.file == "" {
			return // the folder itself
		}
		if strings.ContainsAny(mp.file, "/\\\x00") || mp.file == "." || mp.file == ".." || strings.HasPrefix(mp.file, ".") {
			t.Fatalf("parseMemPath(%q) = file %q, which is not a plain file name", p, mp.file)
		}
		if strings.ContainsFunc(mp.file, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Fatalf("parseMemPath(%q) = file %q with a control character", p, mp.file)
		}
		if got := filepath.Dir(filepath.Join(vault, mp.file)); got != vault {
			t.Fatalf("parseMemPath(%q) = file %q, which lies in %s, not the vault %s", p, mp.file, got, vault)
		}
		if name, err := mp.name(); err == nil && name+".md" != mp.file {
			t.Fatalf("parseMemPath(%q).name() = %q for file %q", p, name, mp.file)
		}
	})
}
