package e2e

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// codexVersion is the Codex CLI release the suite pins.
const codexVersion = "0.171.0"

// findCodex returns the codex binary or skips the test, saying why.
func findCodex(t *testing.T) string {
	return findTool(t, tool{"the Codex CLI", "MNEMO_E2E_CODEX", "codex", "codex", "@openai/codex@" + codexVersion})
}

// newCodexSandbox is a sandbox whose ~/.codex/config.toml points the Codex
// CLI at the fake model (a custom provider on the Responses API), with
// update checks and analytics off. The project is not trusted yet.
func newCodexSandbox(t *testing.T, model *fakeapi.Model) (*sandbox, string) {
	t.Helper()
	codex := findCodex(t)
	s := newBareSandbox(t, model)
	s.setenv("FAKE_OPENAI_KEY=sk-test")
	config := fmt.Sprintf(`model = "gpt-5.5"
model_provider = "fake"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"
`, model.URL())
	os.MkdirAll(filepath.Join(s.home, ".codex"), 0o755)
	if err := os.WriteFile(filepath.Join(s.home, ".codex", "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return s, codex
}

// codexExec runs one non-interactive Codex session (stdin closed: else it
// waits on it) and returns what it printed.
func (s *sandbox) codexExec(codex, prompt string, extra ...string) string {
	s.t.Helper()
	args := append([]string{"exec", "--skip-git-repo-check"}, extra...)
	return s.run(codex, append(args, prompt)...)
}

// rollouts returns the rollout files Codex wrote.
func (s *sandbox) rollouts() []string {
	m, _ := filepath.Glob(filepath.Join(s.home, ".codex", "sessions", "*", "*", "*", "rollout-*.jsonl"))
	return m
}

// TestCodexSession runs the real Codex CLI with mnemo's hooks as
// 'mnemo init --agent codex' writes them: the memory a vault holds reaches
// the first request once, the session's end queues the rollout Codex
// wrote, and the worker reads it: the person's words (not mnemo's context,
// not Codex's environment block), the failing command as a failure, and a
// "remember" becomes a memory.
func TestCodexSession(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s, codex := newCodexSandbox(t, model)
	s.setenv("MNEMO_EXTRACTOR=heuristic")
	s.mnemoRun("init", "--agent", "codex", "--trust-hooks")
	s.mnemoRun("add", "--type", "feedback", "-n", "web-uses-pnpm", "-d", "Use pnpm in web/, never npm", "The web/ folder is managed with pnpm.")
	model.Push(
		fakeapi.Reply{ToolName: "exec_command", ToolInput: `{"cmd":"ls web/missing-dir"}`},
		fakeapi.Reply{Text: "The folder is missing."},
	)
	const prompt = "Remember that we always run go test with -race in this repo. Which package manager for web/?"
	out := s.codexExec(codex, prompt)
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatalf("codex sent no request; it printed:\n%s", out)
	}
	if n := strings.Count(reqs[0], "<mnemo-memory>"); n != 1 || !strings.Contains(reqs[0], "pnpm in web/") {
		t.Errorf("the first request has %d <mnemo-memory> blocks, want 1 with the vault's memory:\n%.4000s", n, reqs[0])
	}
	files := s.rollouts()
	if len(files) != 1 {
		t.Fatalf("codex wrote %d rollouts, want 1", len(files))
	}
	if dir := os.Getenv("MNEMO_E2E_DEBUG"); dir != "" {
		data, _ := os.ReadFile(files[0])
		os.WriteFile(filepath.Join(dir, "codex-rollout.jsonl"), data, 0o644)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".jsonl")
	waitForJob(t, s, id[len(id)-36:], 1) // rollout-<time>-<uuid>
	var queued []struct{ Session string }
	json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &queued)
	if len(queued) != 1 {
		t.Errorf("the session queued %d jobs over %d model calls, want 1", len(queued), len(reqs))
	}

	digest := s.mnemoRun("digest", files[0])
	for _, want := range []string{"user: " + prompt, "`ls web/missing-dir` -> error (exit 2)", "No such file or directory"} {
		if !strings.Contains(digest, want) {
			t.Errorf("the digest lacks %q:\n%s", want, digest)
		}
	}
	for _, not := range []string{"mnemo-memory", "environment_context", "skills_instructions"} {
		if strings.Contains(digest, not) {
			t.Errorf("the digest has %q, which the person did not write:\n%s", not, digest)
		}
	}
	if list := s.mnemoRun("list"); !strings.Contains(list, "race") {
		t.Errorf("the vault has no memory of the remembered -race after the worker ran:\n%s\ninbox:\n%s\nlog:\n%s", list, s.mnemoRun("inbox"), s.stateLog())
	}

	// Resumed, the session appends to its rollout; its next job starts
	// where the first ended, and the memory it had is not injected again
	// (the one the first job made may be: it is new to the session); a
	// topical memory written since comes with the prompt, once.
	s.mnemoRun("add", "--type", "project", "-n", "deploy-staging-first", "-d", "Deploys go to staging first, never straight to prod",
		"Every deploy goes to staging first (quokka-deploy-4).")
	n := len(model.Requests())
	s.codexExec(codex, "How do we deploy to staging?", "resume", id[len(id)-36:])
	if got := model.Requests()[n:]; len(got) == 0 {
		t.Error("the resumed session sent no request")
	} else {
		if c := strings.Count(got[0], "### web-uses-pnpm"); c != 1 {
			t.Errorf("the resumed session's first request has the pnpm memory %d times, want once (from the history)", c)
		}
		if c := strings.Count(got[0], "quokka-deploy-4"); c != 1 {
			t.Errorf("the resumed session's first request has the new deploy memory %d times, want once", c)
		}
	}
	waitForJob(t, s, id[len(id)-36:], 2)
	var jobs []struct {
		Session    string
		Transcript string
		Start      int64 `json:"start_offset"`
		End        int64 `json:"end_offset"`
	}
	json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs)
	slices.SortFunc(jobs, func(a, b struct {
		Session    string
		Transcript string
		Start      int64 `json:"start_offset"`
		End        int64 `json:"end_offset"`
	}) int {
		return cmp.Compare(a.Start, b.Start)
	})
	if len(jobs) != 2 || jobs[0].Transcript != jobs[1].Transcript || jobs[0].Start != 0 || jobs[1].Start != jobs[0].End {
		t.Errorf("jobs = %+v, want the resumed one on the same rollout from where the first ended", jobs)
	}
}

// TestCodexUntrusted shows why init says what it says: without the trust
// --trust-hooks writes (or the user gives in codex), 'codex exec' runs none
// of the project's hooks, silently, even in a trusted project.
func TestCodexUntrusted(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s, codex := newCodexSandbox(t, model)
	s.mnemoRun("init", "--agent", "codex")
	s.mnemoRun("add", "--type", "feedback", "-n", "web-uses-pnpm", "-d", "Use pnpm in web/, never npm", "The web/ folder is managed with pnpm.")
	for _, trustProject := range []bool{false, true} {
		n := len(model.Requests())
		args := []string{}
		if trustProject {
			args = append(args, "--trust") // the project only, not its hooks
		}
		s.codexExec(codex, "Which package manager for web/?", args...)
		reqs := model.Requests()
		if len(reqs) <= n {
			t.Fatal("codex sent no request")
		}
		if strings.Contains(reqs[n], "<mnemo-memory>") {
			t.Errorf("trust project %v: untrusted hooks ran: the request has mnemo's memory", trustProject)
		}
	}
	var jobs []struct{ Session string }
	if err := json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs); err != nil || len(jobs) != 0 {
		t.Errorf("untrusted SessionEnd hooks queued %d jobs (%v), want none", len(jobs), err)
	}
}

// TestCodexMCP runs a Codex session whose model finds mnemo's tools the
// way Codex offers MCP tools, through tool_search (they come back in the
// namespace mcp__mnemo), and calls recall: the call's output, which Codex
// sends back in the next request, holds the memory.
func TestCodexMCP(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s, codex := newCodexSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init", "--agent", "codex", "--trust-hooks")
	s.mnemoRun("add", "--type", "feedback", "-n", "frontend-uses-pnpm", "-d", "The frontend uses pnpm as its package manager, never npm",
		"Run pnpm install in web/; npm breaks the lockfile (zebra-lockfile-7).")
	model.Push(
		fakeapi.Reply{ToolName: "tool_search", ToolInput: `{"query":"mnemo recall memory"}`},
		fakeapi.Reply{ToolName: "recall", Namespace: "mcp__mnemo", ToolInput: `{"query":"package manager frontend"}`},
		fakeapi.Reply{Text: "Use pnpm."},
	)
	s.codexExec(codex, "Set up the frontend build.")
	reqs := model.Requests()
	if !strings.Contains(responsesOutput(t, reqs, "tool_search_output", ""), `"name":"mcp__mnemo"`) {
		t.Errorf("tool_search did not offer mnemo's tools")
	}
	got := responsesOutput(t, reqs, "function_call_output", "mcp__mnemo.recall")
	if !strings.Contains(got, "zebra-lockfile-7") || !strings.Contains(got, "frontend-uses-pnpm") {
		t.Errorf("the recall output the model got does not carry the memory:\n%.2000s", got)
	}
}

// responsesOutput returns, from the Responses API requests Codex sent, the
// first input item of the given type (compact JSON) answering a call of
// the tool named "<namespace>.<name>"; any call when tool is "".
func responsesOutput(t *testing.T, requests []string, typ, tool string) string {
	t.Helper()
	var req struct {
		Input []json.RawMessage `json:"input"`
	}
	for _, body := range requests {
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		calls := map[string]string{} // call id → namespace.name
		for _, raw := range req.Input {
			var it struct {
				Type, Name, Namespace string
				CallID                string `json:"call_id"`
			}
			json.Unmarshal(raw, &it)
			switch {
			case it.Type == "function_call":
				calls[it.CallID] = it.Namespace + "." + it.Name
			case it.Type == typ && (tool == "" || calls[it.CallID] == tool):
				var b bytes.Buffer
				json.Compact(&b, raw)
				return b.String()
			}
		}
	}
	t.Fatalf("no request carries a %s for %q", typ, tool)
	return ""
}
