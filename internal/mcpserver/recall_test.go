package mcpserver_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// recallOut is recall's structuredContent.
type recallOut struct {
	Memories []struct {
		Name        string   `json:"name"`
		Vault       string   `json:"vault"`
		Type        string   `json:"type"`
		Body        string   `json:"body"`
		BodyOmitted bool     `json:"body_omitted"`
		Why         string   `json:"why"`
		Written     string   `json:"written"`
		Stale       []string `json:"stale"`
		Status      string   `json:"status"`
	} `json:"memories"`
	NextCursor string `json:"next_cursor"`
	Note       string `json:"note"`
}

func (o recallOut) names() []string {
	var out []string
	for _, m := range o.Memories {
		out = append(out, m.Name)
	}
	return out
}

var recallVault = map[string]string{
	".memory/frontend-uses-pnpm.md": mem("frontend-uses-pnpm", "feedback", "The frontend uses pnpm as its package manager, never npm",
		"Run pnpm install in web/; npm breaks the lockfile (zebra-lockfile-7)."),
	".memory/deploy-on-tuesdays.md": mem("deploy-on-tuesdays", "project", "Deploys go out on Tuesdays only",
		"The release train leaves Tuesday 10:00 UTC; a hotfix needs the on-call's approval."),
	".memory/auth-lives-in-auth.md": mem("auth-lives-in-auth", "project", "Authentication lives in internal/auth; UserService must not import billing",
		"Moved in 2026-09.", "anchors:\n  files:\n    - path: internal/auth/service.go\n      sha256: 0000000000000000\n"),
	".memory/guessed-package-manager.md": mem("guessed-package-manager", "project", "The package manager might be yarn",
		"A guess from an old README.", "confidence: 0.3\n"),
	"internal/auth/service.go": "package auth\n",
}

func TestRecall(t *testing.T) {
	f := newFixture(t, recallVault)
	tests := []struct {
		name string
		args map[string]any
		want []string // names, in order (a prefix of the answer)
	}{
		{"query", map[string]any{"query": "package manager"}, []string{"frontend-uses-pnpm"}},
		{"q alias", map[string]any{"q": "package manager"}, []string{"frontend-uses-pnpm"}},
		{"text alias", map[string]any{"text": "which package manager"}, []string{"frontend-uses-pnpm"}},
		{"files rank the anchored memory", map[string]any{"files": []string{"internal/auth/service.go"}}, []string{"auth-lives-in-auth"}},
		{"absolute file path", map[string]any{"files": []string{"PROJECT/internal/auth/service.go"}}, []string{"auth-lives-in-auth"}},
		{"type filter", map[string]any{"query": "package manager deploys", "type": "project"}, []string{"deploy-on-tuesdays"}},
		{"low confidence shown when asked", map[string]any{"query": "yarn", "min_confidence": 0}, []string{"guessed-package-manager"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fs, ok := tt.args["files"].([]string); ok {
				tt.args["files"] = []string{strings.ReplaceAll(fs[0], "PROJECT", f.root)}
			}
			var out recallOut
			text := f.ok("recall", tt.args, &out)
			if got := out.names(); len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Errorf("recall(%v) = %v, want %v first\n%s", tt.args, got, tt.want, text)
			}
			if !strings.Contains(out.Note, "dated claim") {
				t.Errorf("note = %q, want the dated-claim warning", out.Note)
			}
		})
	}
}

func TestRecallAnswer(t *testing.T) {
	f := newFixture(t, recallVault)
	var out recallOut
	text := f.ok("recall", map[string]any{"query": "package manager yarn"}, &out)
	if slices.Contains(out.names(), "guessed-package-manager") {
		t.Errorf("recall returned a memory of confidence 0.3 under the default min_confidence 0.6: %v", out.names())
	}
	first := out.Memories[0]
	if first.Body == "" || !strings.Contains(first.Why, "package") || first.Written != "2026-11-01" || first.Vault != "project" {
		t.Errorf("first result = %+v; want body, why naming the matched words, written date, vault", first)
	}
	if !strings.Contains(text, "zebra-lockfile-7") || !strings.Contains(text, "why:") {
		t.Errorf("text answer lacks the body or why:\n%s", text)
	}

	// The anchored file's content differs from its recorded hash: stale.
	out = recallOut{}
	f.ok("recall", map[string]any{"query": "authentication billing"}, &out)
	if len(out.Memories) == 0 || out.Memories[0].Name != "auth-lives-in-auth" || len(out.Memories[0].Stale) == 0 ||
		!strings.Contains(out.Memories[0].Stale[0], "internal/auth/service.go changed") {
		t.Errorf("recall(authentication) = %+v, want auth-lives-in-auth marked stale", out.Memories)
	}
}

func TestRecallPagesAndBudget(t *testing.T) {
	files := map[string]string{}
	for i := range 12 {
		name := fmt.Sprintf("kafka-topic-%02d", i)
		files[".memory/"+name+".md"] = mem(name, "project", fmt.Sprintf("Kafka topic %d carries the orders stream, partition rule %d", i, i),
			strings.Repeat("Kafka consumers must commit offsets after processing orders. ", 8))
	}
	f := newFixture(t, files)
	var seen []string
	args := map[string]any{"query": "kafka orders", "k": 5}
	for page := 0; ; page++ {
		var out recallOut
		f.ok("recall", args, &out)
		if len(out.Memories) != min(5, 12-5*page) {
			t.Fatalf("page %d has %d memories, want %d", page, len(out.Memories), min(5, 12-5*page))
		}
		seen = append(seen, out.names()...)
		if out.NextCursor == "" {
			break
		}
		args = map[string]any{"query": "kafka orders", "top_k": 5, "cursor": out.NextCursor}
	}
	slices.Sort(seen)
	if len(slices.Compact(seen)) != 12 {
		t.Errorf("pages gave %d distinct memories, want 12: %v", len(seen), seen)
	}

	var out recallOut
	f.ok("recall", map[string]any{"query": "kafka orders", "limit": 5, "budget_tokens": 200}, &out)
	full, lines := 0, 0
	for _, m := range out.Memories {
		if m.BodyOmitted {
			lines++
		} else {
			full++
		}
	}
	if full == 0 || lines == 0 {
		t.Errorf("a 200-token budget gave %d whole memories and %d description lines; want some of each", full, lines)
	}
}

func TestRecallErrors(t *testing.T) {
	f := newFixture(t, recallVault)
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "recall needs a query"},
		{map[string]any{"query": "x", "type": "proj"}, "proj"},
		{map[string]any{"query": "x", "cursor": "next please"}, "cursor"},
		{map[string]any{"query": "x", "limit": "five"}, "limit"},
		{map[string]any{"query": "x", "search": "y"}, "search"},
	}
	for _, tt := range tests {
		if got := f.fail("recall", tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("recall(%v) error = %q, want it to mention %q", tt.args, got, tt.want)
		}
	}
}

// TestRecallConfidenceFilterRefills checks that memories left out for low
// confidence do not leave the page short when confident ones follow.
func TestRecallConfidenceFilterRefills(t *testing.T) {
	files := map[string]string{
		".memory/yarn-is-used.md": mem("yarn-is-used", "project", "The monorepo uses yarn workspaces", "Checked in package.json."),
	}
	for i := range 8 {
		name := fmt.Sprintf("yarn-guess-%d", i)
		files[".memory/"+name+".md"] = mem(name, "project", "Yarn yarn yarn: maybe yarn for the monorepo", "yarn guess", "confidence: 0.2\n")
	}
	f := newFixture(t, files)
	var out recallOut
	f.ok("recall", map[string]any{"query": "yarn monorepo", "k": 1}, &out)
	if got := out.names(); len(got) != 1 || got[0] != "yarn-is-used" || out.NextCursor != "" {
		t.Errorf("recall(k=1) = %v (next %q), want yarn-is-used alone", got, out.NextCursor)
	}
}
