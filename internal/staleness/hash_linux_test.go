package staleness

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeInfo is a file's stat as the test sets it.
type fakeInfo struct {
	size    int64
	mod     time.Time
	changed time.Time
	ino     uint64
}

func (f fakeInfo) Name() string       { return "a.go" }
func (f fakeInfo) Size() int64        { return f.size }
func (f fakeInfo) Mode() fs.FileMode  { return 0o644 }
func (f fakeInfo) ModTime() time.Time { return f.mod }
func (f fakeInfo) IsDir() bool        { return false }
func (f fakeInfo) Sys() any {
	return &syscall.Stat_t{Ino: f.ino, Dev: 1, Ctim: syscall.NsecToTimespec(f.changed.UnixNano())}
}

// TestHashOpen: a hash remembered is used while the file's size and stamp
// hold, and not once its change time or identity moved, though its size
// and modification time did not (cp -p, rsync -t, touch -r, a file put in
// its place); a file changed within filestamp.Window is not remembered.
func TestHashOpen(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	one, two := "package a // One\n", "package a // Two\n"
	sum := func(s string) string {
		h, err := hash(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	settledInfo := fakeInfo{size: int64(len(one)), mod: old, changed: old, ino: 7}
	recent := fakeInfo{size: int64(len(one)), mod: old, changed: time.Now(), ino: 7}
	tests := []struct {
		name    string
		first   fakeInfo // of one, hashed first
		then    fakeInfo // of two, hashed next
		want    string   // the second hash
		comment string
	}{
		{"unchanged stamp", settledInfo, settledInfo, sum(one), "remembered: read again only when the stamp moves"},
		{"change time moved", settledInfo, fakeInfo{settledInfo.size, old, old.Add(time.Minute), 7}, sum(two), ""},
		{"another file", settledInfo, fakeInfo{settledInfo.size, old, old, 8}, sum(two), ""},
		{"changed within the window", recent, recent, sum(two), "not remembered"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var memo Memo
			if got, err := hashOpen(&memo, "a.go", strings.NewReader(one), tt.first); err != nil || got != sum(one) {
				t.Fatalf("first hash = %q, %v; want %q", got, err, sum(one))
			}
			if got, err := hashOpen(&memo, "a.go", strings.NewReader(two), tt.then); err != nil || got != tt.want {
				t.Errorf("second hash = %q, %v; want %q (%s)", got, err, tt.want, tt.comment)
			}
		})
	}
}
