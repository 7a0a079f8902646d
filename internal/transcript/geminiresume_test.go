package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The files of a Gemini CLI 0.61.0 session that started a sub-agent and
// was resumed a minute later (as the real CLI wrote them, internal/e2e):
// the original, which the resume appended to; the file the resume
// started, which SessionStart named; the sub-agent's session.
var (
	geminiChats    = filepath.Join("testdata", "gemini-resume", "chats")
	geminiOrig     = filepath.Join(geminiChats, "session-2026-11-30T10-00-6d43ba95.jsonl")
	geminiResumed  = filepath.Join(geminiChats, "session-2026-12-01T13-15-6d43ba95.jsonl")
	geminiSubagent = filepath.Join(geminiChats, "6d43ba95-7a37-4492-afbb-2207a972f089", "94527574-1b32-4763-817a-858e20394ade.jsonl")
)

// TestGeminiResume reads a resumed session: whole, it is the session
// before the resume (its first prompt too, which the CLI's rebuilt
// history leaves out) and then what is new; from the offset the first
// session ended at, only what is new.
func TestGeminiResume(t *testing.T) {
	data, err := os.ReadFile(geminiOrig)
	if err != nil {
		t.Fatal(err)
	}
	before, _, ok := bytes.Cut(data, []byte(`{"$set":{"sessionId"`)) // where the resume began
	if !ok {
		t.Fatal("the session file has no resume")
	}
	first := NewReader(bytes.NewReader(before), 0)
	for _, err := first.Next(); err == nil; _, err = first.Next() {
	}
	tests := []struct {
		name string
		from int64
		want []string
	}{
		{"whole", 0, []string{"Which package manager for web/? Check web/missing-dir with a sub-agent.", "Thanks, that is all."}},
		{"from the first session's end", first.Offset(), []string{"Thanks, that is all."}},
	}
	for _, tt := range tests {
		b := NewBuilder(Options{})
		if _, err := b.ReadFile(t.Context(), geminiOrig, tt.from); err != nil {
			t.Fatal(err)
		}
		var prompts []string
		for _, turn := range b.Digest().Turns {
			for _, it := range turn.Items {
				if it.Kind == ItemUser {
					prompts = append(prompts, it.Text)
				}
			}
		}
		if !slices.Equal(prompts, tt.want) {
			t.Errorf("%s (offset %d): prompts %q, want %q", tt.name, tt.from, prompts, tt.want)
		}
	}
}

// TestGeminiOriginal finds the file a session is recorded in from any of
// its files: the resume's new file leads to the original.
func TestGeminiOriginal(t *testing.T) {
	other := filepath.Join("testdata", "sidechain.jsonl")
	for _, tt := range []struct{ path, want string }{
		{geminiResumed, geminiOrig},
		{geminiOrig, geminiOrig},
		{other, other}, // not Gemini's
		{filepath.Join(geminiChats, "session-2026-12-01T13-15-00000000.jsonl"), filepath.Join(geminiChats, "session-2026-12-01T13-15-00000000.jsonl")},
	} {
		if got := GeminiOriginal(tt.path); got != tt.want {
			t.Errorf("GeminiOriginal(%s) = %s, want %s", tt.path, got, tt.want)
		}
	}
}

// TestGeminiSubagent digests a session with the sub-agent it started, as
// Claude Code's are: the sub-agent's work in a turn of its own linked to
// the call, its task as the parent agent's words (without the instructions
// the CLI loads in front of it), its failing command a failure; nothing of
// the sub-agent is the person's.
func TestGeminiSubagent(t *testing.T) {
	subs, err := SubagentFiles(geminiOrig)
	if err != nil || !slices.Equal(subs, []string{geminiSubagent}) {
		t.Fatalf("SubagentFiles = %q, %v, want the sub-agent's session", subs, err)
	}
	d := digestFiles(t, Options{}, geminiOrig, geminiSubagent)
	golden(t, "gemini-resume.digest", d.String())
	var task *ToolCall
	for _, c := range d.calls() {
		if c.Name == "Task" {
			task = c
		}
	}
	if task == nil || task.AgentTurn == 0 {
		t.Errorf("the invoke_agent call is not linked to the sub-agent's turn: %+v", task)
	}
	fails := d.Failures()
	if len(fails) != 1 || fails[0].Call.Arg != "ls web/missing-dir" {
		t.Errorf("Failures() = %+v, want the sub-agent's ls", fails)
	}
	for _, text := range d.Said() {
		if strings.Contains(text, "List the folder") {
			t.Errorf("the person said %q: the sub-agent's task is the agent's", text)
		}
	}
	if s := d.String(); strings.Contains(s, "loaded_context") || strings.Contains(s, "server instructions") {
		t.Errorf("the digest holds the instructions the CLI loads:\n%s", s)
	}
}
