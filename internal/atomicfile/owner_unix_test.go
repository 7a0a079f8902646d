//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestWriteFileLike(t *testing.T) {
	for _, perm := range []os.FileMode{0o600, 0o640, 0o644, 0o400} {
		dir := t.TempDir()
		path := filepath.Join(dir, ".claude.json")
		if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chmod(path, perm)
		like, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{path, path + ".bak"} {
			if err := WriteFileLike(p, []byte(`{"a":1}`), like); err != nil {
				t.Fatal(err)
			}
			if fi, _ := os.Stat(p); fi.Mode().Perm() != perm {
				t.Errorf("WriteFileLike(%s) mode = %#o, want %#o", filepath.Base(p), fi.Mode().Perm(), perm)
			}
		}
	}
}

// TestWriteFileLikeOwner: a file root rewrites keeps its owner and group.
func TestWriteFileLikeOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 4321, 8765
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
	like, _ := os.Stat(path)
	for _, p := range []string{path, path + ".bak"} {
		if err := WriteFileLike(p, []byte(`{"a":1}`), like); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(p)
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid || fi.Mode().Perm() != 0o600 {
			t.Errorf("WriteFileLike(%s) = owner %d:%d mode %#o, want %d:%d %#o", filepath.Base(p), st.Uid, st.Gid, fi.Mode().Perm(), uid, gid, 0o600)
		}
	}
}
