package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/gittest"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestResumeRepeatsNothing resumes a session three times, the last after a
// memory was written: every request of the resumed runs carries each
// memory once, the new one included.
func TestResumeRepeatsNothing(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init")
	s.mnemoRun("add", "--type", "feedback", "-d", "Never state a figure without verifying it", "The user corrected two guessed numbers (quokka-figures-3).")
	s.mnemoRun("add", "--type", "user", "-d", "The user is a backend engineer", "Go and PostgreSQL, mostly (quokka-backend-5).")

	first := s.claudeP("Hello there")
	marks := []string{"quokka-figures-3", "quokka-backend-5"}
	for i, prompt := range []string{"Tell me more", "And once more", "And the cache?"} {
		if i == 2 {
			time.Sleep(time.Second) // times are kept to the second
			s.mnemoRun("add", "--type", "feedback", "-d", "Clear the cache before a benchmark", "The user wants cold numbers (quokka-cache-7).")
			marks = append(marks, "quokka-cache-7")
		}
		n := len(model.Requests())
		s.claudeP(prompt, "--resume", first.SessionID)
		for _, req := range model.Requests()[n:] {
			text := requestText(t, req)
			for _, mark := range marks {
				if c := strings.Count(text, mark); c != 1 {
					t.Errorf("after %q a request carries %s %d times, want once", prompt, mark, c)
				}
			}
		}
	}
}

// TestSuspectMemoryGivenWithReason edits a file a memory is anchored to
// and asks the topical question: the memory comes with its reason.
func TestSuspectMemoryGivenWithReason(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init")
	os.MkdirAll(filepath.Join(s.project, "src"), 0o755)
	os.WriteFile(filepath.Join(s.project, "src", "deploy.sh"), []byte("#!/bin/sh\nmake build\npush_release \"$1\"\n"), 0o755)
	s.run("git", "add", "-A")
	s.run("git", "commit", "-qm", "first")
	s.mnemoRun("add", "-n", "deploy-script", "-f", "src/deploy.sh", "-d", "Deploys run src/deploy.sh with the prod target",
		"Run `src/deploy.sh prod`; it calls `push_release` after the build (wombat-deploy-9).")
	s.run("git", "add", "-A")
	s.run("git", "commit", "-qm", "memory")
	os.WriteFile(filepath.Join(s.project, "src", "deploy.sh"), []byte("#!/bin/sh\nmake build\nship \"$1\"\n"), 0o755)
	s.run("git", "commit", "-qam", "change")
	s.mnemoRun("verify")

	n := len(model.Requests())
	s.claudeP("How do we deploy with src/deploy.sh prod?")
	var got string
	for _, req := range model.Requests()[n:] {
		got += after(requestText(t, req), "How do we deploy with src/deploy.sh prod?")
	}
	if !strings.Contains(got, "wombat-deploy-9") || !strings.Contains(got, "src/deploy.sh changed since") || !strings.Contains(got, "check before use") {
		t.Errorf("the topical prompt did not carry the suspect memory with its reason; after the prompt:\n%.3000s", got)
	}
}

// TestFirstRequestWithinBudget gives a session a vault of 1,000 memories:
// what mnemo puts in the first request (MEMORY.md, which Claude Code loads,
// and the SessionStart context) stays within the default budget.
func TestFirstRequestWithinBudget(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t)
	s := newSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init")
	dir := filepath.Join(s.project, ".memory")
	for i := range 1000 {
		name := fmt.Sprintf("fact-%04d", i)
		text := fmt.Sprintf("---\nname: %s\ndescription: Service %d listens on port %d behind the shared gateway\ntype: project\nupdated: 2026-11-01T00:00:00Z\nsource: manual\n---\nRestart service %d with make restart-%d.\n", name, i, 8000+i, i, i)
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gittest.FromTeammate(t, s.project, ".memory") // a teammate's memories: a commit made here would vouch for none
	s.mnemoRun("reindex")
	index, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
	if err != nil {
		t.Fatal(err)
	}
	s.claudeP("Hello there")
	reqs := model.Requests()
	if len(reqs) == 0 {
		t.Fatal("the fake model got no request")
	}
	text := requestText(t, reqs[0])
	if !strings.Contains(text, "- … and ") {
		t.Errorf("the first request does not carry MEMORY.md's overflow line: Claude Code did not load it?")
	}
	tokens := memory.EstimateTokens(string(index))
	for _, block := range fenced(text) {
		tokens += memory.EstimateTokens(block)
	}
	if tokens > memory.ContextTokens {
		t.Errorf("mnemo's part of the first request costs %d tokens, want at most %d", tokens, memory.ContextTokens)
	}
	t.Logf("mnemo's part of the first request: %d tokens", tokens)
}

// requestText returns every string a request body holds, decoded, one a line.
func requestText(t *testing.T, body string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("request body: %v", err)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// fenced returns the mnemo-memory blocks of a text.
func fenced(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "<mnemo-memory>")
		if i < 0 {
			return out
		}
		j := strings.Index(text[i:], "</mnemo-memory>")
		if j < 0 {
			return append(out, text[i:])
		}
		out = append(out, text[i:i+j+len("</mnemo-memory>")])
		text = text[i+j:]
	}
}
