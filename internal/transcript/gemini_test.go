package transcript

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiSession digests a Gemini CLI session file (one JSON document):
// the prompts, the shell command that failed and the one that passed after
// the edits, the files touched, and no CLI notice.
func TestGeminiSession(t *testing.T) {
	d := digestFiles(t, Options{CWD: "/home/dev/acct"}, filepath.Join("testdata", "gemini.json"))
	golden(t, "gemini.digest", d.String())
	if m := d.Meta; m.SessionID != "6f0b9a52-2d1e-4c8a-9f3e-7b1d2c3e4f50" || m.Agent != "gemini" {
		t.Errorf("Meta = %+v", m)
	}
	f := d.Files()
	if strings.Join(f.Edited, ",") != "billing/invoice.go" || strings.Join(f.Created, ",") != "billing/first_test.go" {
		t.Errorf("Files() = %+v", f)
	}
	fails := d.Failures()
	if len(fails) != 1 || !strings.Contains(fails[0].Call.Error, "index out of range") || fails[0].FixedBy == nil {
		t.Errorf("Failures() = %+v, want the failing test run, fixed by the later one", fails)
	}
	if strings.Contains(d.String(), "Request cancelled") {
		t.Error("the digest holds the CLI's own notice")
	}
}

// TestGeminiOffsets: offsets count messages, so a second job reads only
// the messages added since, and an offset past the end is ErrOffset.
func TestGeminiOffsets(t *testing.T) {
	path := filepath.Join("testdata", "gemini.json")
	r, err := Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ends []int64
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, e.End)
	}
	if r.Offset() != 6 {
		t.Errorf("Offset() after the whole session = %d, want 6 (messages)", r.Offset())
	}
	if len(ends) == 0 || ends[len(ends)-1] != 5 && ends[len(ends)-1] != 6 {
		t.Errorf("entry ends = %v", ends)
	}

	r, err = Open(path, 4)
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Next()
	if err != nil || e.Type != "user" || !strings.HasPrefix(entryText(e), "Thanks. Remember") {
		t.Errorf("from message 4: first entry %+v, %v; want the last prompt", e, err)
	}
	if _, err := Open(path, 7); !errors.Is(err, ErrOffset) {
		t.Errorf("Open at message 7 of 6: %v, want ErrOffset", err)
	}

	// A document cut short while Gemini CLI rewrites it is an error, so
	// that the job is retried, not completed with nothing.
	data, _ := os.ReadFile(path)
	cut := filepath.Join(t.TempDir(), "cut.json")
	os.WriteFile(cut, data[:len(data)/2], 0o644)
	if _, err := Open(cut, 2); err == nil || !strings.Contains(err.Error(), "being written") {
		t.Errorf("Open of a half-written session: %v, want an error", err)
	}
}

func TestLooksGemini(t *testing.T) {
	tests := []struct {
		head string
		want bool
	}{
		{"{\n  \"sessionId\": \"x\",", true},
		{"  \n{\n", true},
		{`{"sessionId":"x","projectHash":"h","messages":[]}`, true},
		{`{"sessionId":"x","startTime":"t","messages":[{"type":"user"}]}`, true},
		{`{ "sessionId": "x", "messages" : [] }`, true},
		{`{"type":"user","sessionId":"x","message":{"content":"see "messages":[1]"}}` + "\n", false},
		{`{"parentUuid":null,"sessionId":"x","type":"assistant","message":{"content":[{"type":"tool_use","input":{"messages":[]}}]}}`, false},
		{`{"sessionId":"x","type":"user","message":{"content":"messages"}}`, false},
		{`{"type":"user","sessionId":"x","message":{"content":"messages"}}` + "\n", false},
		{`{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, false},
		{"", false},
		{"[1]", false},
	}
	for _, tt := range tests {
		if got := looksGemini([]byte(tt.head)); got != tt.want {
			t.Errorf("looksGemini(%q) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestGeminiTool(t *testing.T) {
	tests := []struct {
		name, args, want string
	}{
		{"run_shell_command", `{"command":"make","description":"build"}`, `Bash {"command":"make"}`},
		{"read_file", `{"absolute_path":"/p/a.go"}`, `Read {"file_path":"/p/a.go"}`},
		{"read_file", `{"file_path":"b.go"}`, `Read {"file_path":"b.go"}`},
		{"write_file", `{"file_path":"/p/c.go","content":"x"}`, `Write {"file_path":"/p/c.go"}`},
		{"replace", `{"file_path":"/p/d.go","old_string":"a","new_string":"b"}`, `Edit {"file_path":"/p/d.go"}`},
		{"glob", `{"pattern":"**/*.go"}`, `Glob {"pattern":"**/*.go"}`},
		{"search_file_content", `{"pattern":"TODO"}`, `Grep {"pattern":"TODO"}`},
		{"google_web_search", `{"query":"go 1.26"}`, `WebSearch {"query":"go 1.26"}`},
		{"save_memory", `{"fact":"x"}`, `save_memory {"fact":"x"}`},
		{"list_directory", `not json`, `list_directory {}`},
	}
	for _, tt := range tests {
		name, input := geminiTool(tt.name, json.RawMessage(tt.args))
		if got := name + " " + string(input); got != tt.want {
			t.Errorf("geminiTool(%s, %s) = %s, want %s", tt.name, tt.args, got, tt.want)
		}
	}
}

func TestGeminiSessionID(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	tests := []struct{ path, want string }{
		{filepath.Join("testdata", "gemini.json"), "6f0b9a52-2d1e-4c8a-9f3e-7b1d2c3e4f50"},
		{write("late.json", `{"projectHash":"h","messages":[{"type":"user"}],"sessionId":"s2"}`), "s2"},
		{write("none.json", `{"messages":[]}`), ""},
		{write("array.json", `[1,2]`), ""},
		{write("cut.json", `{"projectHash":"h","mess`), ""},
		{filepath.Join(dir, "missing.json"), ""},
	}
	for _, tt := range tests {
		if got := GeminiSessionID(tt.path); got != tt.want {
			t.Errorf("GeminiSessionID(%s) = %q, want %q", filepath.Base(tt.path), got, tt.want)
		}
	}
}
