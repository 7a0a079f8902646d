package atomicfile

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.md")
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFile(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != content {
			t.Errorf("after WriteFile(%q) the file holds %q", content, got)
		}
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode = %v, want 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if IsTemp(e.Name()) {
			t.Errorf("temp file %s left behind", e.Name())
		}
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil, 0o644); err == nil || !strings.Contains(err.Error(), "write x:") {
		t.Errorf("WriteFile into a missing folder = %v, want an error naming x", err)
	}
}

func TestWriteFileRefusesSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "sock") // short path: sockets have a length limit
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Skip("no unix sockets:", err)
	}
	defer l.Close()
	if err := WriteFile(path, []byte("x"), 0o644); err == nil {
		t.Errorf("WriteFile over a socket = nil, want an error")
	}
}
