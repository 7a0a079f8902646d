package mcpserver_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// another connects a second server process to the same project, as a
// second Claude Code session in the same repository does.
func (f *fixture) another() *fixture {
	f.t.Helper()
	g := &fixture{t: f.t, extra: f.extra, root: f.root, home: f.home, state: f.state}
	g.connect()
	return g
}

// callTool calls a tool from any goroutine: it reports, never fails the test.
func callTool(s *mcp.ClientSession, tool string, args map[string]any) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %s", tool, textOf(res))
	}
	return textOf(res), nil
}

// TestConcurrentUpdatesKeepBoth: two servers update one memory at once,
// one its description, the other its body. Both answer "updated", so both
// changes must be in the file afterwards. (Before the one door, one edit
// was lost in 58 of 60 rounds.)
func TestConcurrentUpdatesKeepBoth(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/deploy-target.md": mem("deploy-target", "project", "Deploys go to the blue cluster", "Round 0.")})
	g := f.another()
	const rounds = 20
	for i := 1; i <= rounds; i++ {
		desc, body := fmt.Sprintf("Deploys go to the blue cluster, round %d", i), fmt.Sprintf("Round %d body.", i)
		f.prompt("s", desc+". "+body) // the person states both: each is applied in place
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() {
			_, errs[0] = callTool(f.session, "update", map[string]any{"name": "deploy-target", "description": desc})
		})
		wg.Go(func() {
			_, errs[1] = callTool(g.session, "update", map[string]any{"name": "deploy-target", "fact": body})
		})
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", i, err)
			}
		}
		m := f.load("deploy-target")
		if m.Description != desc || strings.TrimSpace(m.Body) != body {
			t.Fatalf("round %d: the memory holds %q / %q, want both updates %q / %q", i, m.Description, strings.TrimSpace(m.Body), desc, body)
		}
	}
}

// TestOversizedWritesRefused: a write no reader would open is refused, and
// an update that is refused leaves the old body as it was.
func TestOversizedWritesRefused(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/runbook.md": mem("runbook", "reference", "Where the on-call runbook lives", "In the wiki under Ops.")})
	huge := strings.Repeat("All of the log lines pasted in. ", 40000) // ~1.2 MiB
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"remember", map[string]any{"description": "A pasted log that is far too long", "fact": huge, "confidence": 1.0}},
		{"update", map[string]any{"name": "runbook", "fact": huge}},
		{"memory", map[string]any{"command": "create", "path": "/memories/pasted-log.md", "file_text": huge}},
	} {
		// Not f.fail: its message would print the megabyte.
		text, err := callTool(f.session, c.tool, c.args)
		if err == nil || !strings.Contains(err.Error(), "larger than") {
			t.Errorf("%s of %d bytes = %.100q, %.200v; want a refusal that says it is too large", c.tool, len(huge), text, err)
		}
	}
	if m := f.load("runbook"); strings.TrimSpace(m.Body) != "In the wiki under Ops." {
		t.Errorf("runbook body after a refused update = %.60q, want the old body", m.Body)
	}
	if f.exists(".memory/pasted-log.md") || f.count() != 1 {
		t.Errorf("an oversized memory was written (%d memories)", f.count())
	}
	if idx := f.read(".memory/MEMORY.md"); !strings.Contains(idx, "[runbook]") {
		t.Errorf("MEMORY.md lost the runbook:\n%s", idx)
	}
}

// TestReadsRedactSecrets: a secret written into a vault file by hand
// (no write path of mnemo accepts one) is not given to the agent by get,
// recall, the memory tool's view or the memory resource.
func TestReadsRedactSecrets(t *testing.T) {
	token := "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	f := newFixture(t, map[string]string{".memory/registry-login.md": mem("registry-login", "feedback",
		"Log in to the package registry as the release bot", "The bot token is "+token+"; publish after logging in.")})
	answers := map[string]string{
		"get":    textOf(f.call("get", map[string]any{"name": "registry-login"})),
		"recall": textOf(f.call("recall", map[string]any{"query": "package registry release bot login"})),
		"view":   textOf(f.call("memory", map[string]any{"command": "view", "path": "/memories/registry-login.md"})),
	}
	res, err := f.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "memory://registry-login"})
	if err != nil {
		t.Fatal(err)
	}
	answers["resource"] = res.Contents[0].Text
	for what, text := range answers {
		if !strings.Contains(text, "registry") {
			t.Errorf("%s did not answer with the memory: %q", what, text)
		}
		if strings.Contains(text, token) || strings.Contains(text, "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI") {
			t.Errorf("%s gave the agent the token: %q", what, text)
		}
	}
}

// TestUpdateTypeRecomputesReviewBy: a project memory made feedback loses
// the project's review date (gc would have deleted it at that horizon);
// made project again, it gets one.
func TestUpdateTypeRecomputesReviewBy(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/small-prs.md": mem("small-prs", "project", "The team keeps pull requests small", "Under 300 lines.", "review_by: 2027-02-28\n")})
	f.ok("update", map[string]any{"name": "small-prs", "type": "feedback"}, nil)
	if m := f.load("small-prs"); !m.ReviewBy.IsZero() {
		t.Errorf("feedback memory has review_by %v, want none", m.ReviewBy)
	}
	f.ok("update", map[string]any{"name": "small-prs", "type": "project"}, nil)
	if m := f.load("small-prs"); m.ReviewBy.IsZero() {
		t.Error("made project again, the memory has no review_by")
	}
}
