package mcpserver_test

import (
	"context"
	"encoding/json"
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
	ctx, cancel := context.WithTimeout(context.Background(), within(30*time.Second))
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

// TestReadsRedactSecrets: a secret written into a vault file by hand, or
// committed by a teammate (no write path of mnemo accepts one), is given
// to the agent by no reading tool, whichever field of the file holds it:
// the body, the description, why, the tags, an anchored path, a
// backticked identifier (which verify quotes), a linked memory's
// description, an import's source, a link's target.
func TestReadsRedactSecrets(t *testing.T) {
	token := "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	aws := "AKIA" + "Z7QX4RW2LM9KD3PV"
	slack := "xoxb-2938475610-4857392018475-" + "q8zr2lkp9wxv3nmt7yhb4jcd"
	anchored := "anchors:\n  files:\n    - path: keys/" + aws + ".txt\n      sha256: 0123456789abcdef\n"
	f := newFixture(t, map[string]string{
		".memory/registry-login.md": mem("registry-login", "feedback",
			"Log in to the package registry as the release bot", "The bot token is "+token+"; publish after logging in."),
		".memory/registry-token.md": mem("registry-token", "project",
			"The registry bot token is "+token, "The release bot publishes. See [[registry-tags]] and [["+slack+"]]."),
		".memory/registry-why.md": mem("registry-why", "project",
			"Why the registry bot publishes", "The release bot publishes to the registry.", "why: the user pasted "+token+"\n"),
		".memory/registry-tags.md": mem("registry-tags", "project",
			"The registry tags each release", "The registry bot tags releases.", "tags: [registry, "+token+"]\n"),
		".memory/registry-key.md": mem("registry-key", "project",
			"Where the registry bot key file is", "The registry bot key is read as `"+token+"`.", anchored),
		".memory/registry-import.md": "---\nname: registry-import\ndescription: The registry notes imported from the wiki\ntype: project\n" +
			"source: import:wiki?token=" + token + "\n---\nThe registry notes moved here from the wiki.\n",
	})
	calls := map[string]struct {
		tool string
		args map[string]any
	}{
		"recall":         {"recall", map[string]any{"query": "package registry release bot token key"}},
		"recall again":   {"recall", map[string]any{"query": "package registry release bot token key"}}, // the texts kept from the first
		"list":           {"list", map[string]any{}},
		"verify":         {"verify", map[string]any{}},
		"view /memories": {"memory", map[string]any{"command": "view", "path": "/memories"}},
	}
	for _, n := range []string{"registry-login", "registry-token", "registry-why", "registry-tags", "registry-key", "registry-import"} {
		calls["get "+n] = struct {
			tool string
			args map[string]any
		}{"get", map[string]any{"name": n}}
		calls["view "+n] = struct {
			tool string
			args map[string]any
		}{"memory", map[string]any{"command": "view", "path": "/memories/" + n + ".md"}}
	}
	answers := make(map[string]string)
	for what, c := range calls {
		data, err := json.Marshal(f.call(c.tool, c.args))
		if err != nil {
			t.Fatal(err)
		}
		answers[what] = string(data)
	}
	for _, uri := range []string{"memory://registry-login", "memory://registry-tags", "memory://index"} {
		res, err := f.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		answers[uri] = res.Contents[0].Text
	}
	for what, text := range answers {
		if !strings.Contains(text, "registry") {
			t.Errorf("%s did not answer with the memory: %.200q", what, text)
		}
		for _, s := range []string{"8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI", aws, "q8zr2lkp9wxv3nmt7yhb4jcd"} {
			if strings.Contains(text, s) {
				t.Errorf("%s gave the agent a secret (%.6s…): %q", what, s, text)
			}
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
