package vault

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestGitBlobID: the id computed for a file is the one git gives it, in
// both object formats.
func TestGitBlobID(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	for _, format := range []string{"sha1", "sha256"} {
		repo := t.TempDir()
		if err := exec.Command("git", "init", "-q", "--object-format="+format, repo).Run(); err != nil {
			t.Skipf("git init --object-format=%s: %v", format, err)
		}
		for _, data := range []string{"", "---\nname: a\n---\nbody\n", strings.Repeat("é\x00", 1000)} {
			path := filepath.Join(repo, "f")
			os.WriteFile(path, []byte(data), 0o644)
			out, err := exec.Command("git", "-C", repo, "hash-object", path).Output()
			if err != nil {
				t.Fatal(err)
			}
			want := strings.TrimSpace(string(out))
			if got := gitBlobID([]byte(data), len(want)); got != want {
				t.Errorf("gitBlobID(%q, %s) = %s, want %s", data, format, got, want)
			}
		}
	}
}

// TestVouchUpgrade: the first read or the first write on a machine takes
// the files there as vouched for (an upgrade disowns nothing); a file with
// a source written into the vault afterwards, not by mnemo, is disowned.
func TestVouchUpgrade(t *testing.T) {
	ctx := context.Background()
	file := func(name string) string {
		return "---\nname: " + name + "\ndescription: About " + name + "\ntype: project\nsource: manual\n---\nBody.\n"
	}
	for _, first := range []string{"read", "write"} {
		t.Run(first, func(t *testing.T) {
			dir, state := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(dir, "old-one.md"), []byte(file("old-one")), 0o644)
			v, err := Open(dir, LockPath(state))
			if err != nil {
				t.Fatal(err)
			}
			if first == "read" {
				v.List()
			} else if err := v.Create(ctx, memory.New(memory.Header{Name: "new-one", Description: "New", Type: memory.TypeProject, Source: "manual"}, "b")); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, "planted.md"), []byte(file("planted")), 0o644)
			v2, _ := Open(dir, LockPath(state)) // another process
			entries, _ := v2.List()
			for _, e := range entries {
				if want := e.Name != "planted"; e.Memory.Reviewed() != want {
					t.Errorf("after a first %s: %s reviewed = %v, want %v", first, e.Name, e.Memory.Reviewed(), want)
				}
			}
		})
	}
}
