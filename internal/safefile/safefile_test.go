//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "a.md")
	os.WriteFile(regular, []byte("hello"), 0o644)
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.md")
	os.Symlink("/dev/zero", zero)
	sparse := filepath.Join(dir, "sparse.md")
	f, _ := os.Create(sparse)
	f.Truncate(1 << 30) // 1 GiB of nothing, no disk
	f.Close()
	tests := []struct {
		path  string
		limit int64
		want  error // nil: read whole
	}{
		{regular, 5, nil},
		{regular, 4, ErrTooLarge},
		{fifo, 1 << 20, ErrNotRegular},
		{zero, 1 << 20, ErrNotRegular},
		{dir, 1 << 20, ErrNotRegular},
		{sparse, 1 << 20, ErrTooLarge},
		{filepath.Join(dir, "missing"), 1, os.ErrNotExist},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var data []byte
		var err error
		go func() {
			data, err = Read(tt.path, tt.limit)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Read(%s) hangs", tt.path)
		}
		if tt.want == nil && (err != nil || string(data) != "hello") {
			t.Errorf("Read(%s, %d) = %q, %v; want hello", tt.path, tt.limit, data, err)
		}
		if tt.want != nil && !errors.Is(err, tt.want) {
			t.Errorf("Read(%s, %d) = %v, want %v", tt.path, tt.limit, err, tt.want)
		}
	}
}
