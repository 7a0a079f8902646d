//go:build unix

package envtrust

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadRegular: a named pipe is not waited on, a file past the bound is
// an error, not read whole.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, ".env")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readRegular(pipe)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrNotExist) {
			t.Errorf("readRegular(a named pipe) = %v; want os.ErrNotExist", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("readRegular(a named pipe) waited for a writer")
	}
	big := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), maxSettingsFile+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := readRegular(big); err == nil || len(data) > maxSettingsFile+1 {
		t.Errorf("readRegular(a file past the bound) = %d bytes, %v; want an error", len(data), err)
	}
}
