package envtrust

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestReadDotenv(t *testing.T) {
	cases := []struct {
		name, in string
		want     []setting
	}{
		{"plain", "A=1\n", []setting{{key: "A", value: "1"}}},
		{"export, spaces and a comment", "export\tB = two words # note\n", []setting{{key: "B", value: "two words"}}},
		{"a comment without a space", "C=x#y", []setting{{key: "C", value: "x"}}},
		{"double quotes", `D="a\nb # c"`, []setting{{key: "D", value: "a\nb # c"}}},
		{"single quotes keep escapes", `E='a\nb'`, []setting{{key: "E", value: `a\nb`}}},
		{"a quoted value over lines", "F=\"one\ntwo\"\nG=3\n", []setting{{key: "F", value: "one\ntwo"}, {key: "G", value: "3"}}},
		{"colon", "H: v", []setting{{key: "H", value: "v"}}},
		{"returns", "I=1\r\nJ=2\r\n", []setting{{key: "I", value: "1"}, {key: "J", value: "2"}}},
		{"empty", "K=", []setting{{key: "K", value: ""}}},
		{"not variables", "# comment\n\n=x\nnot a line\n", nil},
		{"an unclosed quote", `L="open`, []setting{{key: "L", value: `"open`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := readDotenv([]byte(c.in)); !slices.Equal(got, c.want) {
				t.Errorf("readDotenv(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestReadSettings(t *testing.T) {
	cases := []struct {
		name string
		read func([]byte) []setting
		in   string
		want []setting
	}{
		{"claude", readClaudeSettings, `{"env": {"A": "x", "N": 1, "B": true, "O": {"no": 1}}, "hooks": {}}`,
			[]setting{{key: "A", value: "x"}, {key: "B", value: "true"}, {key: "N", value: "1"}}},
		{"claude values are not expanded", readClaudeSettings, `{"env": {"A": "${HOME}/x"}}`, []setting{{key: "A", value: "${HOME}/x"}}},
		{"mcp values are", readMCPServers, `{"mcpServers": {"m": {"env": {"A": "${HOME}/x", "B": "y"}}}}`,
			[]setting{{key: "A", value: "${HOME}/x", expands: true}, {key: "B", value: "y"}}},
		{"gemini comments", readGeminiSettings, "{\n// a comment\n\"mcpServers\": {\"m\": {\"env\": {\"A\": \"x // not a comment\"}}}, /* and */\n" +
			`"hooks": {"SessionEnd": [{"hooks": [{"env": {"B": "y"}}]}]}}`,
			[]setting{{key: "A", value: "x // not a comment"}, {key: "B", value: "y"}}},
		{"not JSON", readClaudeSettings, `{"env": {"A": "x",},}`, []setting{{key: "A"}, {key: "env"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.read([]byte(c.in))
			slices.SortFunc(got, func(a, b setting) int { return strings.Compare(a.key, b.key) })
			if !slices.Equal(got, c.want) {
				t.Errorf("read(%s) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func FuzzReadDotenv(f *testing.F) {
	f.Add([]byte("# dev\nexport OPENAI_BASE_URL=\"http://localhost:11434/v1\" # ollama\nKEY='a b'\nMULTI=\"x\ny\"\nPORT: 3000\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, s := range readDotenv(data) {
			if s.key == "" || !bytes.Contains(data, []byte(s.key)) {
				t.Fatalf("readDotenv(%q) gave the key %q", data, s.key)
			}
		}
	})
}

func FuzzStripComments(f *testing.F) {
	f.Add([]byte("{\n  // the hooks\n  \"hooks\": {\"SessionEnd\": [{\"hooks\": [{\"command\": \"mnemo hook session-end // x\", \"env\": {\"A\": \"/* no */\"}}]}]} /* end */\n}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := stripComments(data)
		if len(out) != len(data) || bytes.Count(out, []byte("\n")) != bytes.Count(data, []byte("\n")) {
			t.Fatalf("stripComments(%q) = %q: not the same length and lines", data, out)
		}
		readGeminiSettings(data)
		readClaudeSettings(data)
	})
}
