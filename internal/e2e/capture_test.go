package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// The whole loop with the real client: a claude -p session with a user
// correction, a tool call and an error; SessionEnd queues the transcript
// Claude Code wrote and starts the worker; the worker extracts the
// correction and consolidates it; in the next session a related prompt
// gets the new memory injected.

const correction = "Remember that we always use pnpm in web/, never npm. Now add the rc-slider package."

func TestCaptureLoopHeuristic(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_EXTRACTOR=heuristic")
	captureLoop(t, s, model)
}

// TestCaptureLoopAnthropic runs the loop with mnemo's Anthropic provider
// against the same fake: the extraction request carries the digest of
// the session Claude Code wrote (the prompt, the tool call, the error), and
// the model's reply becomes the memory.
func TestCaptureLoopAnthropic(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_EXTRACTOR=anthropic")
	model.PushPlain(fakeapi.Reply{Text: `[{"name":"web-uses-pnpm","description":"Use pnpm in web/, never npm: npm breaks the lockfile",` +
		`"fact":"The web/ folder is managed with pnpm; the user corrected an npm install.","type":"feedback","category":"preference",` +
		`"files":[],"confidence":0.95,"why":"The user said to remember it."}]`})
	captureLoop(t, s, model)
	reqs := model.PlainRequests()
	if len(reqs) == 0 {
		t.Fatal("the worker sent no extraction request")
	}
	for _, want := range []string{"we always use pnpm in web/", "Bash", "ls web/missing-dir", "No such file or directory"} {
		if !strings.Contains(reqs[0], want) {
			t.Errorf("the extraction request lacks %q:\n%.3000s", want, reqs[0])
		}
	}
}

func captureLoop(t *testing.T, s *sandbox, model *fakeapi.Model) {
	t.Helper()
	s.mnemoRun("init")
	model.Push(
		fakeapi.Reply{ToolName: "Bash", ToolInput: `{"command":"ls web/missing-dir","description":"look at web"}`},
		fakeapi.Reply{Text: "The folder is missing; nothing installed."},
	)
	first := s.claudeP(correction, "--allowedTools", "Bash")
	waitForJob(t, s, first.SessionID, 1)
	// A second prompt in the session: the LLM providers skip sessions of
	// a single prompt (the cost guard), and read the whole session now.
	s.claudeP("Thanks, that is all.", "--resume", first.SessionID)
	waitForJob(t, s, first.SessionID, 2)

	list := s.mnemoRun("list")
	if !strings.Contains(list, "pnpm") {
		t.Fatalf("the vault has no pnpm memory after the worker ran:\n%s\ninbox:\n%s\nlog:\n%s", list, s.mnemoRun("inbox"), s.stateLog())
	}

	// The next session gets the new memory: at its start (a small vault's
	// bodies fit there) or beside the prompt.
	n := len(model.Requests())
	s.claudeP("Which package manager do I use for web/?")
	if got := model.Requests()[n]; !strings.Contains(got, "<mnemo-memory>") || !strings.Contains(strings.ToLower(got), "pnpm in web/") {
		t.Errorf("the next session did not get the new memory; its first request:\n%.3000s", got)
	}
}

// waitForJob waits until the worker the SessionEnd hook started has
// finished the session's first n jobs.
func waitForJob(t *testing.T, s *sandbox, session string, n int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		var jobs []struct{ Session, State, LastError, Transcript string }
		json.Unmarshal([]byte(s.mnemoRun("queue", "list", "--json")), &jobs)
		done := 0
		for _, j := range jobs {
			if j.Session != session {
				continue
			}
			if _, err := os.Stat(j.Transcript); err != nil || filepath.Ext(j.Transcript) != ".jsonl" {
				t.Fatalf("the job's transcript %s is not the file Claude Code wrote", j.Transcript)
			}
			switch j.State {
			case "done":
				done++
			case "failed", "dead":
				t.Fatalf("the job failed: %s\nlog:\n%s", j.LastError, s.stateLog())
			}
		}
		if done >= n {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the worker did not finish the session's job in time; log:\n%s", s.stateLog())
}
