package vault

import (
	"context"
	"os"
	"path/filepath"
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

// TestTakeResolved: regenerating a MEMORY.md git left conflicted notes the
// conflict in the state folder, which is taken once; a regeneration with
// no conflict notes nothing; a note that is not one is an error, and goes.
func TestTakeResolved(t *testing.T) {
	const conflicted = "# Memory index\n<<<<<<< HEAD\n- Alice: we release on Tuesdays\n=======\n- Bob: the cluster is in eu-west-1\n>>>>>>> 2525b3a\n"
	tests := []struct {
		name   string
		index  string // MEMORY.md before the reindex; "" for the one Create wrote
		note   string // a note there before, if not ""
		want   Resolved
		wantOK bool
		err    bool
	}{
		{name: "conflicted", index: conflicted, want: Resolved{First: 2, Last: 6}, wantOK: true},
		{name: "not conflicted"},
		{name: "not a note", note: "{\"index\":", err: true},
		{name: "a note of no lines", note: `{"index":"/x/MEMORY.md","first":0}`, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, state := filepath.Join(t.TempDir(), ".memory"), t.TempDir()
			if _, err := Create(dir); err != nil {
				t.Fatal(err)
			}
			v, err := Open(dir, LockPath(state))
			if err != nil {
				t.Fatal(err)
			}
			if tt.index != "" {
				writeFile(t, filepath.Join(dir, IndexFile), tt.index)
			}
			if tt.note != "" {
				writeFile(t, filepath.Join(state, ResolvedFile), tt.note)
			}
			if err := v.Reindex(context.Background()); err != nil {
				t.Fatal(err)
			}
			if tt.wantOK {
				tt.want.Index = filepath.Join(dir, IndexFile)
			}
			r, ok, err := TakeResolved(state)
			if r != tt.want || ok != tt.wantOK || (err != nil) != tt.err {
				t.Errorf("TakeResolved = %+v, %v, %v; want %+v, %v, error %v", r, ok, err, tt.want, tt.wantOK, tt.err)
			}
			if r, ok, err := TakeResolved(state); ok || err != nil {
				t.Errorf("TakeResolved again = %+v, %v, %v; want nothing: a note is taken once", r, ok, err)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
