package cli

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSessionKey(t *testing.T) {
	gemini := filepath.Join(t.TempDir(), "session-2026-11-29T16-00-6f0b9a52.json")
	doc := `{"sessionId": "6f0b9a52-2d1e-4c8a-9f3e-7b1d2c3e4f50", "projectHash": "h", "messages": []}`
	if err := os.WriteFile(gemini, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{"/h/.claude/projects/-p/7d3c9a1e-5b2f-4c8e-9a6d-1f0e2b3c4d5e.jsonl", "7d3c9a1e-5b2f-4c8e-9a6d-1f0e2b3c4d5e"},
		{"/h/.claude/projects/-p/7d3c/subagents/agent-a1b2.jsonl", "7d3c/agent-a1b2"},
		{"/h/.codex/sessions/2026/11/28/rollout-2026-11-28T09-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"},
		{"/h/.codex/sessions/rollout-short.jsonl", "rollout-short"},
		{"/h/.gemini/tmp/abc/chats/session-2026-11-29T16-00-6f0b9a52.json", "session-2026-11-29T16-00-6f0b9a52"}, // unreadable: its name
		{gemini, "6f0b9a52-2d1e-4c8a-9f3e-7b1d2c3e4f50"},
		{"/tmp/x.jsonl", "x"},
	}
	for _, tt := range tests {
		if got := sessionKey(tt.path); got != tt.want {
			t.Errorf("sessionKey(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
