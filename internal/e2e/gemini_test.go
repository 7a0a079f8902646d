package e2e

import (
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// geminiVersion is the Gemini CLI release the suite pins.
const geminiVersion = "0.61.0"

// findGemini returns the gemini binary or skips the test, saying why.
func findGemini(t *testing.T) string {
	return findTool(t, tool{"the Gemini CLI", "MNEMO_E2E_GEMINI", "gemini", "gemini", "@google/gemini-cli@" + geminiVersion})
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
// or mnemo's own context), the failing command as a failure, and a
// "remember" becomes a memory.
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
	const prompt = "Remember that we always run go test with -race in this repo. Which package manager for web/?"
	out := s.run(gemini, "--yolo", "-p", prompt) // stdin is /dev/null
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatalf("gemini sent no request; it printed:\n%s", out)
	}
	if n := strings.Count(reqs[0], "Recalled by mnemo"); n != 1 || !strings.Contains(reqs[0], "pnpm in web/") {
		t.Errorf("the first request has %d of mnemo's memory blocks, want 1 with the vault's memory:\n%.3000s", n, reqs[0])
	}
	// SessionStart's context goes in front of the first prompt, the
	// prompt hook's after it: the memory comes at the session's start.
	if i, j := strings.Index(reqs[0], "Recalled by mnemo"), strings.Index(reqs[0], prompt); i > j {
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
	for _, want := range []string{"user: " + prompt, "`ls web/missing-dir` -> error (exit 2)", "assistant: The folder is missing."} {
		if !strings.Contains(digest, want) {
			t.Errorf("the digest of %s lacks %q:\n%s", jobs[0].Transcript, want, digest)
		}
	}
	for _, not := range []string{"session_context", "mnemo-memory", "hook_context"} {
		if strings.Contains(digest, not) {
			t.Errorf("the digest has %q, which the person did not write:\n%s", not, digest)
		}
	}
	if list := s.mnemoRun("list"); !strings.Contains(list, "race") {
		t.Errorf("the vault has no memory of the remembered -race after the worker ran:\n%s\ninbox:\n%s\nlog:\n%s", list, s.mnemoRun("inbox"), s.stateLog())
	}
}

// TestGeminiMCP runs a Gemini CLI session whose model calls mnemo's recall
// tool (Gemini names an MCP server's tools mcp_<server>_<tool>): the
// tool's result, which the CLI sends back in the next request, holds the
// memory.
func TestGeminiMCP(t *testing.T) {
	model := fakeapi.New(t)
	s, gemini := newGeminiSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init", "--agent", "gemini")
	s.mnemoRun("add", "--type", "feedback", "-n", "frontend-uses-pnpm", "-d", "The frontend uses pnpm as its package manager, never npm",
		"Run pnpm install in web/; npm breaks the lockfile (zebra-lockfile-7).")
	model.Push(
		fakeapi.Reply{ToolName: "mcp_mnemo_recall", ToolInput: `{"query":"package manager frontend"}`},
		fakeapi.Reply{Text: "Use pnpm."},
	)
	s.run(gemini, "--yolo", "-p", "Set up the frontend build.")
	got := geminiFunctionResponse(t, model.Requests(), "mcp_mnemo_recall")
	if !strings.Contains(got, "zebra-lockfile-7") || !strings.Contains(got, "frontend-uses-pnpm") {
		t.Errorf("the recall result the model got does not carry the memory:\n%.2000s", got)
	}
}

// geminiFunctionResponse returns the output of the named function as the
// Gemini CLI sent it back to the model (a functionResponse part).
func geminiFunctionResponse(t *testing.T, requests []string, name string) string {
	t.Helper()
	var req struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	for _, body := range requests {
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		for _, c := range req.Contents {
			for _, p := range c.Parts {
				if fr := p.FunctionResponse; fr != nil && fr.Name == name {
					return string(fr.Response)
				}
			}
		}
	}
	t.Fatalf("no request carries the response of %s", name)
	return ""
}

// laterClock is a script node loads first (NODE_OPTIONS=--require) that
// moves the Gemini CLI's clock an hour ahead: a session file is named for
// the minute it starts (new Date()), so a resume an hour later writes a new
// file, as a resume does in use, without the test waiting for the clock.
// Only new Date() moves, not Date.now(): the CLI's lock on its project
// registry (proper-lockfile) compares Date.now() with the lock file's real
// modification time, and with both moved every lock looked an hour stale
// and was taken from its holder when two overlapped, as they did under
// load ("Lock is already released", ERELEASED).
const laterClock = `const RealDate = Date;
const ahead = 60 * 60 * 1000;
class LaterDate extends RealDate {
  constructor(...a) { if (a.length === 0) super(RealDate.now() + ahead); else super(...a); }
}
globalThis.Date = LaterDate;
`

// TestGeminiResume runs a Gemini CLI session that starts a sub-agent, then
// resumes it later. The resume goes on in the original file while
// SessionStart names a new one: the resumed session's job reads the
// original from where the first job ended. The resumed history lacks the
// first prompt, which held what SessionStart gave, so the memory the
// session was given is given again, once, and a topical one new since is
// given once; the sub-agent's session is digested with its parent, its
// failing command a failure.
func TestGeminiResume(t *testing.T) {
	model := fakeapi.New(t)
	s, gemini := newGeminiSandbox(t, model)
	s.setenv("MNEMO_EXTRACTOR=heuristic")
	s.mnemoRun("init", "--agent", "gemini")
	s.mnemoRun("add", "--type", "feedback", "-n", "web-uses-pnpm", "-d", "Use pnpm in web/, never npm", "The web/ folder is managed with pnpm.")
	model.Push(
		fakeapi.Reply{ToolName: "invoke_agent", ToolInput: `{"agent_name":"generalist","prompt":"List the folder web/missing-dir and report what is there."}`},
		fakeapi.Reply{ToolName: "run_shell_command", ToolInput: `{"command":"ls web/missing-dir"}`}, // the sub-agent's
		fakeapi.Reply{ToolName: "complete_task", ToolInput: `{"result":{"response":"web/missing-dir does not exist."}}`},
		fakeapi.Reply{Text: "The folder is missing."},
	)
	const prompt = "Which package manager for web/? Check web/missing-dir with a sub-agent."
	s.run(gemini, "--yolo", "-p", prompt)
	jobs := geminiJobs(t, s)
	if len(jobs) != 1 {
		t.Fatalf("the session queued %d jobs, want 1", len(jobs))
	}
	session, orig := jobs[0].Session, jobs[0].Transcript
	waitForJob(t, s, session, 1)

	s.mnemoRun("add", "--type", "project", "-n", "deploy-staging-first", "-d", "Deploys go to staging first, never straight to prod",
		"Every deploy goes to staging first (quokka-deploy-4).")
	clock := filepath.Join(s.home, "later-clock.cjs")
	if err := os.WriteFile(clock, []byte(laterClock), 0o644); err != nil {
		t.Fatal(err)
	}
	n := len(model.Requests())
	s.setenv("NODE_OPTIONS=--require=" + clock)
	s.run(gemini, "--yolo", "--resume", "latest", "-p", "How do we deploy to staging?")
	if files, _ := filepath.Glob(filepath.Join(filepath.Dir(orig), "session-*.jsonl")); len(files) != 2 {
		t.Fatalf("the resume wrote no file of its own (%q): the test does not show what it means to", files)
	}
	resumed := model.Requests()[n:]
	if len(resumed) == 0 {
		t.Fatal("the resumed session sent no request")
	}
	if c := strings.Count(resumed[0], "quokka-deploy-4"); c != 1 {
		t.Errorf("the resumed session's first request has the new deploy memory %d times, want once", c)
	}
	if c := strings.Count(resumed[0], "### web-uses-pnpm"); c != 1 {
		t.Errorf("the resumed session's first request has the pnpm memory %d times, want once: its history lost the first prompt that held it", c)
	}
	if c := strings.Count(resumed[0], "Which package manager for web/?"); c != 0 {
		t.Errorf("the resumed history holds the first prompt (%d times): Gemini CLI no longer drops it, so the pnpm memory need not be given again", c)
	}

	waitForJob(t, s, session, 2)
	jobs = geminiJobs(t, s)
	if len(jobs) != 2 || jobs[1].Transcript != orig || jobs[1].Start != jobs[0].End || jobs[1].End <= jobs[1].Start {
		t.Errorf("jobs = %+v, want the resumed one on %s from where the first ended", jobs, orig)
	}
	digest := s.mnemoRun("digest", orig)
	for _, want := range []string{"user: " + prompt, "user: How do we deploy to staging?", "parent agent: List the folder web/missing-dir",
		"`ls web/missing-dir` -> error (exit 2)"} {
		if c := strings.Count(digest, want); c != 1 {
			t.Errorf("the digest has %q %d times, want once:\n%s", want, c, digest)
		}
	}
	for _, not := range []string{"session_context", "loaded_context", "hook_context", "mnemo-memory"} {
		if strings.Contains(digest, not) {
			t.Errorf("the digest has %q, which no one wrote:\n%s", not, digest)
		}
	}
}

// A geminiJob is a queued job as 'mnemo queue list --json' prints it.
type geminiJob struct {
	ID         int64
	Session    string
	Transcript string
	Start      int64 `json:"start_offset"`
	End        int64 `json:"end_offset"`
}

// geminiJobs returns the queue's jobs, oldest first.
func geminiJobs(t *testing.T, s *sandbox) []geminiJob {
	t.Helper()
	var jobs []geminiJob
	if err := json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(jobs, func(a, b geminiJob) int { return cmp.Compare(a.ID, b.ID) })
	return jobs
}
