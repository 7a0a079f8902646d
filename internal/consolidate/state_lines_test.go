package consolidate

import (
	"bufio"
	"strings"
	"testing"
)

// linesOf returns what eachLine gives of s, with lines past max skipped,
// reading through a buffer smaller than some lines.
func linesOf(t *testing.T, s string, max int) []string {
	t.Helper()
	var got []string
	err := eachLine(bufio.NewReaderSize(strings.NewReader(s), 16), max, func(l []byte) { got = append(got, string(l)) })
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// wantLines is the same, the obvious way.
func wantLines(s string, max int) []string {
	var want []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" && len(l) <= max {
			want = append(want, l)
		}
	}
	return want
}

func TestEachLine(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a\nb\n", []string{"a\n", "b\n"}},
		{"a\nb", []string{"a\n", "b"}},
		{long + "\nok\n", []string{"ok\n"}},
		{"ok\n" + long, []string{"ok\n"}},
		{"\n\n", []string{"\n", "\n"}},
		{strings.Repeat("y", 20) + "\n", []string{strings.Repeat("y", 20) + "\n"}}, // past the buffer, within max
	}
	for _, tt := range tests {
		got := linesOf(t, tt.in, 24)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("eachLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzEachLine(f *testing.F) {
	for _, s := range []string{"a\nb\n", strings.Repeat("x", 40) + "\nok", "{\"name\":\"x\"}\n\n"} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 1 || max > 64 {
			return
		}
		got, want := linesOf(t, s, max), wantLines(s, max)
		if strings.Join(got, "\x00|") != strings.Join(want, "\x00|") {
			t.Errorf("eachLine(%q, %d) = %q, want %q", s, max, got, want)
		}
	})
}
