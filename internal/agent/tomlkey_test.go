package agent

import (
	"slices"
	"testing"
)

func TestTOMLHeader(t *testing.T) {
	tests := []struct {
		line string
		want []string // nil: no header
	}{
		{"[mcp_servers.mnemo]\n", []string{"mcp_servers", "mnemo"}},
		{"[mcp_servers.mnemo] # added by hand\n", []string{"mcp_servers", "mnemo"}},
		{"  [ mcp_servers . \"mnemo\" . env ]  \n", []string{"mcp_servers", "mnemo", "env"}},
		{"[mcp_servers.'mnemo']", []string{"mcp_servers", "mnemo"}},
		{`[projects."/home/a b/x.y"]`, []string{"projects", "/home/a b/x.y"}},
		{`[hooks.state."/r/.codex/hooks.json:session_start:0:0"]`, []string{"hooks", "state", "/r/.codex/hooks.json:session_start:0:0"}},
		{"[[profiles.x]]", []string{"profiles", "x"}},
		{`["a\"]b".c]`, []string{`a"]b`, "c"}},
		{`  ["a"],`, nil},     // a line of a multi-line array
		{`[1, 2]`, nil},       // ditto
		{`[a.b] = 1`, nil},    // not a header
		{`[a..b]`, nil},       // an empty key
		{`["open`, nil},       // unterminated
		{`model = "o3"`, nil}, // a value
		{`[]`, nil},
	}
	for _, tt := range tests {
		got, ok := tomlHeader(tt.line)
		if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
			t.Errorf("tomlHeader(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}

// FuzzTOMLHeader: a header read is read again the same when written in
// [tomlPath]'s spelling.
func FuzzTOMLHeader(f *testing.F) {
	for _, s := range []string{"[mcp_servers.mnemo] # x", `[ a . "b\"c" . 'd' ]`, "[[x]]", `  ["a"],`, `["\u00e9"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		path, ok := tomlHeader(line)
		if !ok {
			return
		}
		again, ok := tomlHeader("[" + tomlPath(path...) + "]")
		if !ok || !slices.Equal(again, path) {
			t.Errorf("%q read as %q, written as %q, read again as %q (%v)", line, path, tomlPath(path...), again, ok)
		}
	})
}
