package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWithin(t *testing.T) {
	tests := []struct {
		root, path string
		want       bool
	}{
		{"/p", "/p", true},
		{"/p", "/p/web", true},
		{"/p", "/p/web/x/../y", true},
		{"/p", "/pq", false},
		{"/p", "/", false},
		{"/p", "/p/..", false},
		{"/p", "/other/p", false},
		{"/p", "/p/..hidden", true},
	}
	for _, tt := range tests {
		if got := within(tt.root, tt.path); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.root, tt.path, got, tt.want)
		}
	}
}

// TestCodexSessionsMissing: no Codex folder, no sessions, no error; a
// rollout without a session_meta line is nobody's.
func TestCodexSessionsMissing(t *testing.T) {
	dir := t.TempDir()
	got, err := CodexSessions(filepath.Join(dir, "nope"), "/p")
	if err != nil || len(got) != 0 {
		t.Errorf("CodexSessions(missing) = %v, %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, "rollout-x.jsonl"), []byte(`{"type":"response_item","payload":{}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "rollout-y.jsonl"), []byte(`{"type":"session_meta","payload":{"cwd":"/p/sub"}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte(`{"type":"session_meta","payload":{"cwd":"/p"}}`+"\n"), 0o644)
	got, err = CodexSessions(dir, "/p")
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "rollout-y.jsonl" {
		t.Errorf("CodexSessions = %v, %v; want rollout-y.jsonl", got, err)
	}
}
