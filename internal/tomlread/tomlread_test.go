package tomlread

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
		{`["\u00e9\x41"]`, []string{"éA"}},
		{`  ["a"],`, nil},     // a line of a multi-line array
		{`[1, 2]`, nil},       // ditto
		{`[a.b] = 1`, nil},    // not a header
		{`[a..b]`, nil},       // an empty key
		{`["open`, nil},       // unterminated
		{`model = "o3"`, nil}, // a value
		{`[]`, nil},
	}
	for _, tt := range tests {
		got, ok := Header(tt.line)
		if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
			t.Errorf("Header(%q) = %q, %v; want %q", tt.line, got, ok, tt.want)
		}
	}
}

func TestTOMLStrings(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // "path=value", the path's keys joined by "/"
		err       string   // a part of the error, "" for none
	}{
		{"tables and dotted keys", `
model = "o3" # a comment
[mcp_servers.mnemo]
command = "mnemo"
args = ["mcp", "--x"]
env = { MNEMO_HOME = "/tmp/a", "ANTHROPIC_BASE_URL" = 'https://x' }
[mcp_servers.other.env]
OPENAI_BASE_URL = "http://b"
[shell_environment_policy]
set.MNEMO_EXTRACTOR = "anthropic"
inherit = "all"
`, []string{"model=o3", "mcp_servers/mnemo/command=mnemo", "mcp_servers/mnemo/env/MNEMO_HOME=/tmp/a",
			"mcp_servers/mnemo/env/ANTHROPIC_BASE_URL=https://x", "mcp_servers/other/env/OPENAI_BASE_URL=http://b",
			"shell_environment_policy/set/MNEMO_EXTRACTOR=anthropic", "shell_environment_policy/inherit=all"}, ""},
		{"escapes", `a = "\u0065vil\x21\e\t\"\\"` + "\n" + `b = "\U0001F600"`,
			[]string{"a=evil!\x1b\t\"\\", "b=😀"}, ""},
		{"multi-line strings", "a = \"\"\"\nline one\\\n    still one\"\"\"\nb = '''\nraw \\n'''\nc = \"\"\"x\"\"\"\"\"\n",
			[]string{"a=line onestill one", "b=raw \\n", `c=x""`}, ""},
		{"scalars skipped", "n = 1\nb = true\nd = 1979-05-27 07:32:00Z\nf = [1, [2, {x = \"in array\"}]]\ns = \"kept\"\n",
			[]string{"s=kept"}, ""},
		{"nested inline tables", `t = { a = { b = "c" }, d = "e" }`, []string{"t/a/b=c", "t/d=e"}, ""},
		{"array of tables", "[[x.y]]\nz = \"1\"\n", []string{"x/y/z=1"}, ""},
		{"stops at an error", "a = \"1\"\nb = \"\\q\"\nc = \"3\"\n", []string{"a=1"}, "line 2: an unknown escape"},
		{"unterminated", "a = \"1\nb = 2", nil, "line 1: a newline in a string"},
		{"crlf", "a = \"1\"\r\nb = '2'\r\n", []string{"a=1", "b=2"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vals, err := Strings(tt.doc)
			var got []string
			for _, v := range vals {
				got = append(got, strings.Join(v.Path, "/")+"="+v.Value)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Strings() = %q, want %q", got, tt.want)
			}
			if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Strings() error = %v, want one with %q", err, tt.err)
			}
		})
	}
}

// FuzzTOMLHeader: a header read is read again the same when written in
// [Quote]'s spelling.
func FuzzTOMLHeader(f *testing.F) {
	for _, s := range []string{"[mcp_servers.mnemo] # x", `[ a . "b\"c" . 'd' ]`, "[[x]]", `  ["a"],`, `["\u00e9"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		path, ok := Header(line)
		if !ok || !utf8.ValidString(strings.Join(path, "")) {
			return // TOML is UTF-8: Quote spells no other bytes
		}
		again, ok := Header("[" + quotePath(path) + "]")
		if !ok || !slices.Equal(again, path) {
			t.Errorf("%q read as %q, written as %q, read again as %q (%v)", line, path, quotePath(path), again, ok)
		}
	})
}

// FuzzTOMLStrings: reading never fails but with an error, and a value
// [Quote] spells is read back as it was, at its key.
func FuzzTOMLStrings(f *testing.F) {
	f.Add("[mcp_servers.mnemo]\nenv = { K = \"v\" }\n", "MNEMO_HOME", "/tmp/\u00e9\n\"x\"")
	f.Add("a = '''\nx'''\n[t]\n", "k", "")
	f.Fuzz(func(t *testing.T, doc, key, value string) {
		Strings(doc)
		if !utf8.ValidString(key) || !utf8.ValidString(value) {
			return
		}
		vals, err := Strings("[t]\n" + Quote(key) + " = " + Quote(value) + " # c\n")
		if err != nil || len(vals) != 1 || !slices.Equal(vals[0].Path, []string{"t", key}) || vals[0].Value != value {
			t.Errorf("%q = %q read back as %q, %v", key, value, vals, err)
		}
	})
}

func quotePath(path []string) string {
	q := make([]string, len(path))
	for i, k := range path {
		q[i] = Quote(k)
	}
	return strings.Join(q, ".")
}
