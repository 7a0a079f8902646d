package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestGeminiSessions finds a project's sessions where Gemini CLI 0.61
// keeps them (a slug folder whose .project_root names the project, record
// logs) and where earlier releases did (the path's hash, documents), and
// not another project's.
func TestGeminiSessions(t *testing.T) {
	dir, root := t.TempDir(), "/home/dev/shop"
	sum := sha256.Sum256([]byte(root))
	files := map[string]string{
		"tmp/shop/.project_root":                                                              root + "\n",
		"tmp/shop/chats/session-2026-12-01T11-50-6a85db4b.jsonl":                              "{}",
		"tmp/shop-1/.project_root":                                                            "/home/dev/other/shop",
		"tmp/shop-1/chats/session-2026-12-01T11-51-00000000.jsonl":                            "{}",
		"tmp/" + hex.EncodeToString(sum[:]) + "/chats/session-2025-01-01T00-00-11111111.json": "{}",
	}
	for p, c := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	got, err := GeminiSessions(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got {
		names = append(names, filepath.Base(g))
	}
	slices.Sort(names)
	want := []string{"session-2025-01-01T00-00-11111111.json", "session-2026-12-01T11-50-6a85db4b.jsonl"}
	if !slices.Equal(names, want) {
		t.Errorf("GeminiSessions = %q, want %q", names, want)
	}
}

// TestCodexSessionsLongMeta: a rollout is found by the cwd of its first
// line however long that line is (Codex 0.171 inlines its instructions).
func TestCodexSessionsLongMeta(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{10, 100 << 10} {
		meta := `{"timestamp":"2026-12-01T00:00:00Z","type":"session_meta","payload":{"id":"x","base_instructions":{"text":"` +
			strings.Repeat("a", n) + `"},"cwd":"/home/dev/shop"}}` + "\n"
		p := filepath.Join(dir, "2026", "12", "01", fmt.Sprintf("rollout-%d.jsonl", n))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(meta), 0o644)
	}
	got, err := CodexSessions(dir, "/home/dev/shop")
	if err != nil || len(got) != 2 {
		t.Errorf("CodexSessions = %q, %v; want both rollouts", got, err)
	}
}
