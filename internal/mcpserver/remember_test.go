package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rememberOut struct {
	Action   string `json:"action"`
	Name     string `json:"name"`
	Where    string `json:"where"`
	Existing string `json:"existing"`
	Message  string `json:"message"`
}

var pnpmFact = map[string]any{
	"description": "The web frontend uses pnpm as its package manager",
	"fact":        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml.",
	"type":        "feedback",
}

func TestRememberAddsAnActiveMemory(t *testing.T) {
	f := newFixture(t, map[string]string{"web/package.json": "{}\n"})
	f.prompt("s", "The release freeze starts next month: no feature merges from next month on, fixes only.")
	var out rememberOut
	f.ok("remember", map[string]any{
		"description": "The release freeze starts next month",
		"content":     "No feature merges from next month on; fixes only.",
		"files":       []string{"web/package.json"},
		"why":         "The user announced it.",
	}, &out)
	if out.Action != "added" || out.Where != "project" {
		t.Fatalf("remember = %+v, want added to the project vault", out)
	}
	m := f.load(out.Name)
	if m.Source != "agent" || m.Confidence != 0.9 || m.Type != "project" || m.Why != "The user announced it." {
		t.Errorf("header = %+v; want source agent, confidence 0.9, type project, the why", m.Header)
	}
	if !strings.Contains(m.Body, "from 2026-12 on") || !strings.Contains(m.Description, "2026-12") {
		t.Errorf("relative dates kept: %q / %q", m.Description, m.Body)
	}
	if len(m.Anchors.Files) != 1 || m.Anchors.Files[0].Path != "web/package.json" || m.Anchors.Files[0].SHA256 == "" {
		t.Errorf("anchors = %+v, want web/package.json hashed", m.Anchors)
	}
	if index := f.read(".memory/MEMORY.md"); !strings.Contains(index, "["+out.Name+"]") {
		t.Errorf("MEMORY.md does not list %s:\n%s", out.Name, index)
	}
	// The index saw the write: recall finds it at once.
	var rec recallOut
	f.ok("recall", map[string]any{"query": "release freeze"}, &rec)
	if len(rec.Memories) == 0 || rec.Memories[0].Name != out.Name {
		t.Errorf("recall after remember = %v, want %s", rec.names(), out.Name)
	}
}

// pnpmPrompt is what the user said of pnpm and npm in web/.
const pnpmPrompt = "The web frontend uses pnpm as its package manager: install packages in web/ with pnpm add, the lockfile is pnpm-lock.yaml, " +
	"and pnpm 9 is pinned in packageManager, so corepack picks it. Integration tests run with make itest; make itest starts Postgres first."

func TestRememberOutcomes(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", pnpmPrompt)
	var first rememberOut
	f.ok("remember", pnpmFact, &first)

	tests := []struct {
		name       string
		args       map[string]any
		wantAction string
		wantText   string
	}{
		{"the same fact", pnpmFact, "not_written", "not written: memory " + first.Name + " already says this"},
		{"an extension", map[string]any{
			"description": "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
			"body":        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml. pnpm 9 is pinned in packageManager, so corepack picks it.",
			"type":        "feedback"}, "updated", "extended existing " + first.Name},
		{"a low-confidence extension", map[string]any{
			"description": "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
			"body":        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml. pnpm 9 is pinned in packageManager, so corepack picks it. Renovate bumps it every month.",
			"type":        "feedback", "confidence": 0.5}, "drafted", "it would extend " + first.Name},
		{"a contradiction", map[string]any{
			"description": "The web frontend does not use pnpm any more; it uses npm as its package manager",
			"fact":        "Install packages in web/ with npm; pnpm was dropped.", "type": "feedback"},
			"not_written", "similar to " + first.Name + ", not written (pass force)"},
		{"low confidence", map[string]any{"description": "Integration tests run with make itest", "fact": "make itest starts Postgres first.",
			"confidence": 0.5}, "drafted", "waits for review in the inbox because its confidence 0.5 is below 0.85"},
		{"not said", map[string]any{"description": "The web frontend is deployed to Vercel", "fact": "Previews on every PR."},
			"drafted", "waits for review in the inbox because it is not in the user's words in this session (not said: "},
		{"forced", map[string]any{
			"description": "The web frontend does not use pnpm any more; it uses npm as its package manager",
			"fact":        "Install packages in web/ with npm; pnpm was dropped.", "type": "feedback", "force": true},
			"added", "remembered as"},
		{"forced, not said", map[string]any{"description": "The web frontend is hosted on Netlify", "fact": "Deploy previews for PRs.", "force": true},
			"drafted", "not in the user's words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := f.count()
			var out rememberOut
			text := f.ok("remember", tt.args, &out)
			if out.Action != tt.wantAction || !strings.Contains(text, tt.wantText) || out.Message != text {
				t.Errorf("remember = %+v (%q), want action %s and %q", out, text, tt.wantAction, tt.wantText)
			}
			after := f.count()
			if grew := after > before; grew != (tt.wantAction == "added") {
				t.Errorf("vault went from %d to %d memories on %s", before, after, tt.wantAction)
			}
		})
	}
	if drafts, _ := filepath.Glob(filepath.Join(f.state, "inbox", "*.md")); len(drafts) != 4 {
		t.Errorf("inbox holds %v, want the proposed extension, the low-confidence draft and the two the user did not say", drafts)
	}
}

// count is how many memories the project vault holds.
func (f *fixture) count() int {
	entries, _ := f.vault().List()
	return len(entries)
}

func TestRememberErrors(t *testing.T) {
	f := newFixture(t, nil)
	f.prompt("s", "x y z. CI runs on self-hosted runners; the runners live in the ops account. Deploy keys rotate every quarter, rotation is manual.")
	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "remember needs the fact"},
		{map[string]any{"fact": "x y z", "type": "note"}, "note"},
		{map[string]any{"fact": "x y z", "name": "Not A Slug"}, "not a memory name"},
		{map[string]any{"fact": "x y z", "confidence": 2}, "confidence"},
		{map[string]any{"fact": "x y z", "files": []string{"../outside.go"}}, ""},
	}
	for _, tt := range tests[:4] {
		if got := f.fail("remember", tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("remember(%v) error = %q, want it to mention %q", tt.args, got, tt.want)
		}
	}
	// A name that is taken is not overwritten.
	var first, second rememberOut
	f.ok("remember", map[string]any{"name": "ci-runner", "description": "CI runs on self-hosted runners", "fact": "The runners live in the ops account."}, &first)
	text := f.ok("remember", map[string]any{"name": "ci-runner", "description": "Deploy keys rotate every quarter", "fact": "Rotation is manual."}, &second)
	if first.Name != "ci-runner" || second.Name != "ci-runner-2" || !strings.Contains(text, "a memory named ci-runner exists already") {
		t.Errorf("remember with a taken name = %+v then %+v (%q)", first, second, text)
	}

	// A file outside the project is not an anchor; the fact is still kept.
	var out rememberOut
	f.ok("remember", tests[4].args, &out)
	if m := f.load(out.Name); len(m.Anchors.Files) != 0 {
		t.Errorf("anchored outside the project: %+v", m.Anchors)
	}
	if _, err := os.Stat(f.path(".memory/" + out.Name + ".md")); err != nil {
		t.Error(err)
	}
}
