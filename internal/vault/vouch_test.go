package vault

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
