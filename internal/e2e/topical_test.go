package e2e

import (
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// addTopicalVault fills the vault with five user and feedback memories,
// which SessionStart gives, and a project memory whose body waits for a
// prompt that needs it (zebra-lockfile-7).
func addTopicalVault(s *sandbox) {
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
}

// checkTopical runs three prompts of one session through run (the first
// starts the session, the others resume it) against a vault filled by
// addTopicalVault: the first request has SessionStart's context and not
// the project memory's body; the prompt about the package manager brings
// that body once; asked again, the session is not given it again (the
// request holds it at most once, from the history).
func checkTopical(t *testing.T, model *fakeapi.Model, run func(prompt string)) {
	t.Helper()
	const body = "zebra-lockfile-7"
	for i, p := range []struct {
		prompt       string
		min, max     int // times the body is in the prompt's first request
		sessionStart bool
	}{
		{"Hello there", 0, 0, true},
		{"Which package manager does the frontend use?", 1, 1, false},
		{"And the package manager again: which one for the frontend?", 0, 1, false},
	} {
		n := len(model.Requests())
		run(p.prompt)
		reqs := model.Requests()[n:]
		if len(reqs) == 0 {
			t.Fatalf("prompt %d sent no request", i+1)
		}
		if c := strings.Count(reqs[0], body); c < p.min || c > p.max {
			t.Errorf("the first request after %q holds the project memory's body %d times, want %d to %d", p.prompt, c, p.min, p.max)
		}
		if p.sessionStart && !strings.Contains(reqs[0], "Never state a figure without verifying it") {
			t.Errorf("the session's first request does not carry SessionStart's context:\n%.3000s", reqs[0])
		}
	}
}

// TestCodexTopicalPrompt: in a Codex session, SessionStart's context
// reaches the first request and a topical prompt brings its memory, once.
func TestCodexTopicalPrompt(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s, codex := newCodexSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init", "--agent", "codex", "--trust-hooks")
	addTopicalVault(s)
	id := ""
	checkTopical(t, model, func(prompt string) {
		if id == "" {
			s.codexExec(codex, prompt)
			if files := s.rollouts(); len(files) == 1 {
				name := strings.TrimSuffix(files[0], ".jsonl")
				id = name[len(name)-36:] // rollout-<time>-<uuid>
			} else {
				t.Fatalf("codex wrote %d rollouts, want 1", len(files))
			}
			return
		}
		s.codexExec(codex, prompt, "resume", id)
	})
}

// TestGeminiTopicalPrompt: in a Gemini CLI session, SessionStart's
// context reaches the first request and a topical prompt brings its
// memory, once.
func TestGeminiTopicalPrompt(t *testing.T) {
	model := fakeapi.New(t)
	s, gemini := newGeminiSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init", "--agent", "gemini")
	addTopicalVault(s)
	first := true
	checkTopical(t, model, func(prompt string) {
		if first {
			first = false
			s.run(gemini, "--yolo", "-p", prompt)
			return
		}
		s.run(gemini, "--yolo", "--resume", "latest", "-p", prompt)
	})
}
