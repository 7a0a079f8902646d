package extract

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// realClaude returns the Claude Code binary the end-to-end suite uses, or
// skips the test, saying why (see package e2e).
func realClaude(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MNEMO_E2E_CLAUDE"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "mnemo-e2e", "claude", "node_modules", ".bin", "claude")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("the Claude Code CLI is not installed (%s; .ci/run installs it there, or set MNEMO_E2E_CLAUDE)", p)
	}
	return p
}

// TestClaudeCLIReal runs the real Claude Code binary as the extractor,
// against the fake Messages API, in a home folder set up to catch what
// isolation must prevent: hooks of every event that would write a marker,
// a user-scope MCP server that would write one when started. The fake
// must receive mnemo's prompt and the digest; its reply must come back as
// candidates; no hook may fire, no MCP server start, and no transcript be
// left in ~/.claude/projects.
func TestClaudeCLIReal(t *testing.T) {
	bin := realClaude(t)
	home, markers := spyHome(t)
	model := fakeapi.New(t, fakeapi.Reply{Text: goodReply})
	cfg := testConfig(ProviderClaudeCLI, "")
	cfg.APIKey = ""
	cfg.ClaudeBinary = bin
	cfg.Timeout = 90 * time.Second
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "ANTHROPIC") || strings.HasPrefix(k, "MNEMO") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "ANTHROPIC_API_KEY=sk-ant-test", "ANTHROPIC_BASE_URL="+model.URL(),
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli") // as when a hook of a running session starts the worker
	cfg.Environ = func() []string { return env }
	x := newExtractor(t, cfg)

	d := testProject(t)
	start := time.Now()
	got, u, err := x.Extract(context.Background(), d)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	t.Logf("claude -p took %v; usage %+v", took, u)
	if len(got) != 1 || got[0].Name != "web-uses-pnpm" || len(got[0].Files) != 1 {
		t.Errorf("Extract = %+v, want the fake's candidate with its existing file", got)
	}

	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the fake model got no request")
	}
	var sawPrompt, sawDigest bool
	for _, r := range reqs {
		sawPrompt = sawPrompt || strings.Contains(r, jsonFragment("You distil a coding session into durable memories"))
		sawDigest = sawDigest || strings.Contains(r, jsonFragment("We use pnpm in web/, always")) && strings.Contains(r, "<digest>")
		if strings.Contains(r, "sk-ant-api03-AbCd") {
			t.Errorf("the API key in the prompt reached the model")
		}
	}
	if !sawPrompt || !sawDigest {
		t.Errorf("the fake did not receive mnemo's prompt (%v) and the digest (%v); first request:\n%.3000s", sawPrompt, sawDigest, reqs[0])
	}
	if len(reqs) > 1 {
		t.Logf("claude sent %d requests", len(reqs))
	}
	if os.Getenv("ZZ_DUMP") != "" {
		for _, r := range reqs {
			t.Logf("request: %s", r)
		}
	}

	if data, err := os.ReadFile(filepath.Join(markers, "hooks")); err == nil {
		t.Errorf("hooks fired in the child session:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(markers, "mcp")); err == nil {
		t.Errorf("the user's MCP server started in the child session")
	}
	if n := transcripts(home); n > 0 {
		t.Errorf("the child session left %d transcripts in ~/.claude/projects", n)
	}

	// The control: the same claude, home and environment without the
	// isolation flags fires the hooks and leaves a transcript, so the
	// checks above can fail.
	cmd := exec.Command(bin, "-p", "hello", "--output-format", "json")
	cmd.Dir, cmd.Env = t.TempDir(), env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("control run: %v\n%s", err, out)
	}
	if data, err := os.ReadFile(filepath.Join(markers, "hooks")); err != nil || !strings.Contains(string(data), "SessionStart") {
		t.Errorf("control run: no SessionStart hook fired (%v); the spy does not work", err)
	}
	if transcripts(home) == 0 {
		t.Errorf("control run: no transcript written; the transcript check does not work")
	}
	if _, err := os.Stat(filepath.Join(markers, "mcp")); err != nil {
		t.Errorf("control run: the user's MCP server did not start; the MCP check does not work")
	}
}

// transcripts counts the transcripts under home's ~/.claude/projects.
func transcripts(home string) int {
	n := 0
	filepath.WalkDir(filepath.Join(home, ".claude", "projects"), func(p string, e fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			n++
		}
		return nil
	})
	return n
}

// spyHome makes a home folder whose Claude Code settings would leave a
// marker in the returned folder if any hook fired or the user's MCP
// server started.
func spyHome(t *testing.T) (home, markers string) {
	t.Helper()
	home, markers = t.TempDir(), t.TempDir()
	hook := func(name string) any {
		return []any{map[string]any{"hooks": []any{map[string]any{"type": "command",
			"command": "echo \"" + name + " MNEMO_CHILD=$MNEMO_CHILD\" >> " + filepath.Join(markers, "hooks")}}}}
	}
	settings := map[string]any{"hooks": map[string]any{
		"SessionStart": hook("SessionStart"), "UserPromptSubmit": hook("UserPromptSubmit"),
		"Stop": hook("Stop"), "SessionEnd": hook("SessionEnd"), "PreCompact": hook("PreCompact"),
	}}
	writeJSON(t, filepath.Join(home, ".claude", "settings.json"), settings)
	writeJSON(t, filepath.Join(home, ".claude.json"), map[string]any{"mcpServers": map[string]any{
		"spy": map[string]any{"type": "stdio", "command": "sh", "args": []string{"-c", "touch " + filepath.Join(markers, "mcp") + "; sleep 1"}},
	}})
	return home, markers
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// jsonFragment returns s as it appears inside a JSON string.
func jsonFragment(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
