package vault

import (
	"slices"
	"strings"
	"testing"
)

func TestUnionConflicts(t *testing.T) {
	tests := []struct {
		name, in, want string
		spans          [][2]int
	}{
		{"none", "a\nb\n", "a\nb\n", nil},
		{"merge style",
			"top\n<<<<<<< HEAD\n- Alice\nshared\n=======\n- Bob\nshared\n>>>>>>> 2525b3a\nend\n",
			"top\n- Alice\nshared\n- Bob\nend\n", [][2]int{{2, 8}}},
		{"diff3 style: the ancestor's lines go",
			"<<<<<<< ours\n- release on Tuesdays\n||||||| base\n- release on Mondays\n=======\n- release on Wednesdays\n>>>>>>> theirs\n",
			"- release on Tuesdays\n- release on Wednesdays\n", [][2]int{{1, 7}}},
		{"two conflicts",
			"<<<<<<< a\nx\n=======\ny\n>>>>>>> b\nmid\n<<<<<<< a\n=======\nz\n>>>>>>> b\n",
			"x\ny\nmid\nz\n", [][2]int{{1, 5}, {7, 10}}},
		{"blank lines kept on both sides",
			"<<<<<<< a\nx\n\n=======\ny\n\n>>>>>>> b\n",
			"x\n\ny\n\n", [][2]int{{1, 7}}},
		{"not closed: as it is",
			"a\n<<<<<<< HEAD\nx\n=======\ny\n",
			"a\n<<<<<<< HEAD\nx\n=======\ny\n", nil},
		{"last line without a newline",
			"<<<<<<< a\nx\n=======\ny\n>>>>>>> b",
			"x\ny\n", [][2]int{{1, 5}}},
		{"a marker quoted in a line is text",
			"say <<<<<<< HEAD\n", "say <<<<<<< HEAD\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, spans := unionConflicts(tt.in)
			if got != tt.want || !slices.Equal(spans, tt.spans) {
				t.Errorf("unionConflicts(%q) = %q, %v; want %q, %v", tt.in, got, spans, tt.want, tt.spans)
			}
		})
	}
}

// FuzzUnionConflicts checks that resolving keeps every line that is not a
// marker or the common ancestor's.
func FuzzUnionConflicts(f *testing.F) {
	f.Add("# Memory index\n<!-- mnemo:begin -->\n## Project\n<<<<<<< HEAD\n- [db-name](db-name.md) — The database is shopdb\n<!-- mnemo:end -->\n- Alice: we release on Tuesdays\n=======\n- [api-port](api-port.md) — The API listens on 8080\n<!-- mnemo:end -->\n- Bob\n>>>>>>> 2525b3a\n")
	f.Add("<<<<<<< a\nx\n||||||| base\nw\n=======\ny\n>>>>>>> b\n")
	f.Fuzz(func(t *testing.T, s string) {
		got, spans := unionConflicts(s)
		kept := make(map[string]bool)
		for l := range strings.Lines(got) {
			kept[strings.TrimRight(l, "\r\n")] = true
		}
		side := 0
		for l := range strings.Lines(s) {
			l = strings.TrimRight(l, "\r\n")
			if conflictRE.MatchString(l) {
				switch l[0] {
				case '<':
					side = 1
				case '|':
					side = 2
				case '=':
					side = 3
				case '>':
					side = 0
				}
				continue
			}
			if side != 2 && !kept[l] && len(spans) > 0 {
				t.Fatalf("unionConflicts(%q) = %q: line %q lost", s, got, l)
			}
		}
	})
}

// TestIndexLinesConflicted reads the memory lines of both sides of a
// conflicted MEMORY.md, as a hook gives them for a vault Claude Code does
// not load itself: before, only ours (up to the first end of a block).
func TestIndexLinesConflicted(t *testing.T) {
	in := "# Memory index\n<!-- mnemo:begin -->\n## Project\n<<<<<<< HEAD\n- [db-name](db-name.md) — The database is shopdb\n" +
		"- [deploy](deploy.md) — Deploy\n<!-- mnemo:end -->\n- Alice\n=======\n- [api-port](api-port.md) — The API listens on 8080\n" +
		"- [deploy](deploy.md) — Deploy\n<!-- mnemo:end -->\n- Bob\n>>>>>>> theirs\n"
	want := []string{"- [db-name](db-name.md) — The database is shopdb", "- [deploy](deploy.md) — Deploy",
		"- [api-port](api-port.md) — The API listens on 8080"}
	got := IndexLines([]byte(in))
	if !slices.Equal(got, want) {
		t.Errorf("IndexLines(conflicted) = %q, want %q", got, want)
	}
}
