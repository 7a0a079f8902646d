package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// TestHooksWithClaudeCode runs real claude -p sessions in a project set up
// with mnemo init: SessionStart's context reaches the first request; a
// prompt about a remembered topic carries the memory, and a second prompt
// of the same session does not repeat it; SessionEnd queues the transcript
// Claude Code wrote; and no hook logs an error.
func TestHooksWithClaudeCode(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_WORKER=off") // keep the job in the queue to look at it
	s.mnemoRun("init")
	for _, m := range [][]string{
		{"--type", "feedback", "-d", "Never state a figure without verifying it", "The user corrected two guessed numbers."},
		{"--type", "feedback", "-d", "Keep pull requests small", "The user asked for PRs under 300 lines."},
		{"--type", "user", "-d", "The user is a backend engineer", "Go and PostgreSQL, mostly."},
		{"--type", "feedback", "-d", "Write Go tests as tables", "Named cases, got and want."},
		{"--type", "user", "-d", "The user works in Berlin time", "Dates in UTC+1."},
		{"--type", "project", "-n", "frontend-uses-pnpm", "-d", "The frontend uses pnpm as its package manager, never npm",
			"Run pnpm install in web/; npm breaks the lockfile (zebra-lockfile-7)."},
	} {
		s.mnemoRun(append([]string{"add"}, m...)...)
	}

	first := s.claudeP("Hello there")
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the fake model got no request")
	}
	if !strings.Contains(reqs[0], "SessionStart hook additional context") || !strings.Contains(reqs[0], "<mnemo-memory>") ||
		!strings.Contains(reqs[0], "Never state a figure without verifying it") {
		t.Errorf("the first request does not carry mnemo's SessionStart context:\n%.3000s", reqs[0])
	}
	if strings.Contains(reqs[0], "zebra-lockfile-7") {
		t.Errorf("SessionStart injected the project memory's body; it should wait for a prompt that needs it")
	}

	n := len(model.Requests())
	s.claudeP("Which package manager does the frontend use?", "--resume", first.SessionID)
	reqs = model.Requests()
	if got := after(reqs[n], "Which package manager does the frontend use?"); !strings.Contains(got, "zebra-lockfile-7") ||
		!strings.Contains(got, "UserPromptSubmit hook additional context") {
		t.Errorf("the prompt about the package manager did not carry the memory; after the prompt:\n%.2000s", got)
	}

	n = len(model.Requests())
	s.claudeP("And the package manager again: which one for the frontend?", "--resume", first.SessionID)
	reqs = model.Requests()
	if got := after(reqs[n], "And the package manager again"); got == "" || strings.Contains(got, "zebra-lockfile-7") {
		t.Errorf("the second prompt of the session repeated the memory; after the prompt:\n%.2000s", got)
	}

	var jobs []struct {
		Session, Transcript, Event, State string
	}
	if err := json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs); err != nil {
		t.Fatal(err)
	}
	if len(jobs) == 0 {
		t.Fatal("SessionEnd queued no job")
	}
	j := jobs[0]
	if j.Session != first.SessionID || j.Event != "session-end" || j.State != "pending" {
		t.Errorf("job = %+v, want session %s, session-end, pending", j, first.SessionID)
	}
	if fi, err := os.Stat(j.Transcript); err != nil || fi.Size() == 0 {
		t.Errorf("the job's transcript %s is not the file Claude Code wrote: %v", j.Transcript, err)
	}
	if log := s.stateLog(); strings.Contains(log, "level=ERROR") {
		t.Errorf("a hook logged an error:\n%s", log)
	}
}

// after returns what a request body holds after the last place it quotes
// prompt: the prompt's own message and the context delivered with it.
func after(body, prompt string) string {
	i := strings.LastIndex(body, prompt)
	if i < 0 {
		return ""
	}
	return body[i+len(prompt):]
}
