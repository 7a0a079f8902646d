package filestamp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestOf: a file's stamp moves with a rewrite that sets the
// modification time back (cp -p, rsync -t, touch -r), and with a file put
// in its place; not with a read.
func TestOf(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("the change time and identity are read on Linux and macOS")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "a.go")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	stamp := func() int64 {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return Of(fi)
	}
	write("package a // One\n")
	first := stamp()
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	if again := stamp(); again != first {
		t.Errorf("a read moved the stamp: %x, then %x", first, again)
	}
	time.Sleep(10 * time.Millisecond) // the change time's clock moves on
	write("package a // Two\n")
	if rewritten := stamp(); rewritten == first {
		t.Errorf("a rewrite at the same size and modification time kept the stamp %x", first)
	}
	before := stamp()
	other := filepath.Join(dir, "b.go")
	if err := os.WriteFile(other, []byte("package a // Two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(other, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, p); err != nil {
		t.Fatal(err)
	}
	if replaced := stamp(); replaced == before {
		t.Errorf("another file put in its place kept the stamp %x", before)
	}
}

func TestSettled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.go")
	if err := os.WriteFile(p, []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	written := fi.ModTime()
	tests := []struct {
		now  time.Time
		want bool
	}{
		{written, false},
		{written.Add(Window / 2), false},
		{written.Add(-time.Hour), false}, // a time in the future
		{written.Add(Window + time.Second), true},
	}
	for _, tt := range tests {
		if got := Settled(fi, tt.now); got != tt.want {
			t.Errorf("settled, written at %v, now %v = %v; want %v", written, tt.now, got, tt.want)
		}
	}
}
