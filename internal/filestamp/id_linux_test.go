package filestamp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOfSys: a reader that calls fstat itself gets the stamp and the
// verdict that Of and Settled give the same file.
func TestOfSys(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	for _, now := range []time.Time{time.Now(), time.Now().Add(Window + time.Second)} {
		stamp, settled := OfSys(&st, now)
		if stamp != Of(fi) || settled != Settled(fi, now) {
			t.Errorf("OfSys at %v = %x, %v; want %x, %v", now, stamp, settled, Of(fi), Settled(fi, now))
		}
	}
}
