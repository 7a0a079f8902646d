package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// geminiVersion is the Gemini CLI release the suite pins.
const geminiVersion = "0.61.0"

// findGemini returns the gemini binary or skips the test, saying why.
func findGemini(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("MNEMO_E2E_GEMINI"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "mnemo-e2e", "gemini", "node_modules", ".bin", "gemini")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("the Gemini CLI is not installed (%s; .ci/run installs @google/gemini-cli@%s there, or set MNEMO_E2E_GEMINI)", p, geminiVersion)
	}
	return p
}

// newGeminiSandbox is a sandbox where the Gemini CLI talks to the fake
// model with an API key, trusts the folder, and sends no statistics and
// checks for no update.
func newGeminiSandbox(t *testing.T, model *fakeapi.Model) (*sandbox, string) {
	t.Helper()
	gemini := findGemini(t)
	s := newBareSandbox(t, model)
	s.setenv("GOOGLE_GEMINI_BASE_URL=" + model.URL())
	s.setenv("GEMINI_API_KEY=test")
	s.setenv("GEMINI_CLI_TRUST_WORKSPACE=true")
	settings := map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	}
	data, _ := json.Marshal(settings)
	os.MkdirAll(filepath.Join(s.home, ".gemini"), 0o755)
	if err := os.WriteFile(filepath.Join(s.home, ".gemini", "settings.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return s, gemini
}

// TestGeminiSessionStart runs the real Gemini CLI with mnemo's hooks as
// 'mnemo init --agent gemini' writes them: the vault's memory reaches the
// first request once, at the session's start; a session queues one
// capture job, not one per model call; and the worker reads the session
// file Gemini wrote: the person's words (not the <session_context> block
// or mnemo's own context), the failing command as a failure.
func TestGeminiSessionStart(t *testing.T) {
	model := fakeapi.New(t)
	s, gemini := newGeminiSandbox(t, model)
	s.setenv("MNEMO_EXTRACTOR=heuristic")
	s.mnemoRun("init", "--agent", "gemini")
	s.mnemoRun("add", "--type", "feedback", "-n", "web-uses-pnpm", "-d", "Use pnpm in web/, never npm", "The web/ folder is managed with pnpm.")
	model.Push(
		fakeapi.Reply{ToolName: "run_shell_command", ToolInput: `{"command":"ls web/missing-dir"}`},
		fakeapi.Reply{Text: "The folder is missing."},
	)
	out := s.run(gemini, "--yolo", "-p", "Which package manager for web/?") // stdin is /dev/null
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatalf("gemini sent no request; it printed:\n%s", out)
	}
	if n := strings.Count(reqs[0], "Recalled by mnemo"); n != 1 || !strings.Contains(reqs[0], "pnpm in web/") {
		t.Errorf("the first request has %d of mnemo's memory blocks, want 1 with the vault's memory:\n%.3000s", n, reqs[0])
	}
	// SessionStart's context goes in front of the first prompt, the
	// prompt hook's after it: the memory comes at the session's start.
	if i, j := strings.Index(reqs[0], "Recalled by mnemo"), strings.Index(reqs[0], "Which package manager for web/?"); i > j {
		t.Errorf("the memory came after the prompt (SessionStart did not run, BeforeAgent brought it)")
	}
	var jobs []struct{ Session, Transcript string }
	json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs)
	if len(jobs) != 1 {
		t.Fatalf("the session queued %d jobs over %d model calls, want 1", len(jobs), len(reqs))
	}
	waitForJob(t, s, jobs[0].Session, 1)
	if dir := os.Getenv("MNEMO_E2E_DEBUG"); dir != "" {
		data, _ := os.ReadFile(jobs[0].Transcript)
		os.WriteFile(filepath.Join(dir, "gemini-session.jsonl"), data, 0o644)
	}
	digest := s.mnemoRun("digest", jobs[0].Transcript)
	for _, want := range []string{"user: Which package manager for web/?", "`ls web/missing-dir` -> error (exit 2)", "assistant: The folder is missing."} {
		if !strings.Contains(digest, want) {
			t.Errorf("the digest of %s lacks %q:\n%s", jobs[0].Transcript, want, digest)
		}
	}
	for _, not := range []string{"session_context", "mnemo-memory", "hook_context"} {
		if strings.Contains(digest, not) {
			t.Errorf("the digest has %q, which the person did not write:\n%s", not, digest)
		}
	}
}
