package project

import (
	"strings"
	"testing"
)

func TestClaudeSlug(t *testing.T) {
	long := "/home/u/" + strings.Repeat("a", 250)
	tests := []struct{ path, want string }{
		{"/home/u/my.proj", "-home-u-my-proj"},
		{"/work/main", "-work-main"},
		{"/home/u/café", "-home-u-caf-"},
		{"/tmp/😀x", "-tmp---x"}, // a surrogate pair is two UTF-16 units
		{long, "-home-u-" + strings.Repeat("a", 192) + "-" + javaHash36(long)},
	}
	for _, tt := range tests {
		if got := ClaudeSlug(tt.path); got != tt.want {
			t.Errorf("ClaudeSlug(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// javaHash36 is String.hashCode in base 36, written out independently for ASCII.
func javaHash36(s string) string {
	var h int32
	for i := 0; i < len(s); i++ {
		h = 31*h + int32(s[i])
	}
	v := int64(h)
	if v < 0 {
		v = -v
	}
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	if v == 0 {
		return "0"
	}
	var out []byte
	for ; v > 0; v /= 36 {
		out = append([]byte{digits[v%36]}, out...)
	}
	return string(out)
}
