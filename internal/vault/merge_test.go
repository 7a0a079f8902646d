package vault

import (
	"strings"
	"testing"
)

func index(lines ...string) []byte {
	return []byte("# Memory index\n" + beginMarker + "\n" + strings.Join(lines, "\n") + "\n" + endMarker + "\nmy notes\n")
}

func TestMergeIndexBlocks(t *testing.T) {
	a := "- [a](a.md) — A"
	a2 := "- [a](a.md) — A, changed"
	b := "- [b](b.md) — B"
	c := "- [c](c.md) — C"
	u := "- [u](u.md) — U"
	tests := []struct {
		name               string
		base, ours, theirs []byte
		want               []byte
	}{
		{"both add", index("## Project", a), index("## Project", a, b), index("## Project", a, c), index("## Project", a, b, c)},
		{"theirs removes", index("## Project", a, b), index("## Project", a, b), index("## Project", b), index("## Project", b)},
		{"ours removes", index("## Project", a, b), index("## Project", b), index("## Project", a, b), index("## Project", b)},
		{"theirs changes", index("## Project", a), index("## Project", a), index("## Project", a2), index("## Project", a2)},
		{"both change", index("## Project", a), index("## Project", a2), index("## Project", "- [a](a.md) — A, other"), index("## Project", a2)},
		{"groups in order", index(), index("## Project", b), index("## User", u), index("## User", u, "## Project", b)},
		{"conflict markers dropped", index("## Project", a), index("## Project", a, "<<<<<<< x", b), index("## Project", a), index("## Project", a, b)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gb, go_, gt := MergeIndexBlocks(tt.base, tt.ours, tt.theirs)
			for i, got := range [][]byte{gb, go_, gt} {
				if string(got) != string(tt.want) {
					t.Errorf("text %d =\n%s\nwant\n%s", i, got, tt.want)
				}
			}
		})
	}
}

func FuzzMergeIndexBlocks(f *testing.F) {
	f.Add(index("## Project", "- [a](a.md) — A"), index("## User", "- [u](u.md)"), []byte("no block"))
	f.Fuzz(func(t *testing.T, base, ours, theirs []byte) {
		_, o, _ := MergeIndexBlocks(base, ours, theirs)
		if _, _, _, found := splitIndex(string(ours)); found {
			if _, _, _, again := splitIndex(string(o)); !again {
				t.Errorf("the merged text lost its block")
			}
			b2, o2, _ := MergeIndexBlocks(o, o, o)
			if string(o2) != string(o) || string(b2) != string(o) {
				t.Errorf("merging a merged text with itself changed it")
			}
		}
	})
}
