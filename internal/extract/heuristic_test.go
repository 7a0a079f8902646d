package extract

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/transcript"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Don't use npm here. We use pnpm in web/, always. Remember that.", []string{"Don't use npm here.", "We use pnpm in web/, always.", "Remember that."}},
		{"Prices are strings; never compare them raw.", []string{"Prices are strings; never compare them raw."}},
		{"See web/src/App.tsx and v1.2.3 e.g. the header. Done!", []string{"See web/src/App.tsx and v1.2.3 e.g. the header.", "Done!"}},
		{"Rules:\n- always X\n- never Y\n\n```\nnever in code\n```\nok?", []string{"Rules:", "always X", "never Y", "ok?"}},
		{"    indented code line\n> quoted never", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range sentences(tt.in) {
			got = append(got, s.text)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("sentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	r := newRules()
	tests := []struct {
		in       string
		want     kind
		remember bool
	}{
		{"Always run make gen after editing the schema.", kindDirective, false},
		{"Never log request bodies: they hold card numbers.", kindDirective, false},
		{"Prices are strings; never compare them without converting.", kindDirective, false},
		{"Please don't add comments that restate the code.", kindDirective, false},
		{"From now on, wrap errors with %w.", kindDirective, false},
		{"We use pnpm in web/, always.", kindConvention, false},
		{"This repo uses conventional commits.", kindConvention, false},
		{"I prefer small pull requests.", kindPreference, false},
		{"We decided to keep the filter client-side because the catalogue is small.", kindDecision, false},
		{"Let's go with SQLite since it must work offline.", kindDecision, false},
		{"I'm a backend engineer, mostly Go.", kindIdentity, false},
		{"The runbook is at https://wiki.example.com/runbook.", kindReference, false},
		{"Remember that staging is read-only.", kindConvention, true},
		{"Keep in mind that v1 stays for the mobile app.", kindConvention, true},

		{"It always fails on the first run.", kindNone, false},
		{"Always the same error, ugh.", kindNone, false},
		{"Don't worry about the tests.", kindNone, false},
		{"Never mind the changelog.", kindNone, false},
		{"Don't forget to run the linter.", kindNone, false},
		{"Do we always deploy from main?", kindNone, false},
		{"I don't remember which flag it was.", kindNone, false},
		{"Let's use the helper here.", kindNone, false},
		{"We don't have tests for that yet.", kindNone, false},
		{"Use the existing helper for this.", kindNone, false},
	}
	for _, tt := range tests {
		k, rem := r.classify(tt.in)
		if k != tt.want || rem != tt.remember {
			t.Errorf("classify(%q) = %d, %v; want %d, %v", tt.in, k, rem, tt.want, tt.remember)
		}
	}
}

func TestDescribe(t *testing.T) {
	long := "The staging database is read-only and every migration goes through the release pipeline; " +
		"running one by hand fails with a permission error and pages the on-call engineer at night"
	tests := []struct{ in, want string }{
		{"Use pnpm in web/.", "Use pnpm in web/"},
		{"  spaced\n  out  ", "spaced out"},
		{long, "The staging database is read-only and every migration goes through the release pipeline"},
		{strings.Repeat("word ", 40), strings.TrimSpace(strings.Repeat("word ", 29)) + "…"},
	}
	for _, tt := range tests {
		got := describe(tt.in)
		if got != tt.want {
			t.Errorf("describe(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if n := len([]rune(got)); n > 150 {
			t.Errorf("describe(%q) is %d characters", tt.in, n)
		}
	}
}

func TestCommands(t *testing.T) {
	tests := []struct {
		cmd     string
		sig     []string
		trivial bool
	}{
		{"cd web && npm run build 2>&1 | tail", []string{"npm", "run", "build"}, false},
		{"FOO=1 go test ./... -count=1", []string{"go", "test"}, false},
		{"docker-compose -f compose.yaml up -d", []string{"docker-compose", "up"}, false},
		{"ls -la types/", []string{"ls"}, true},
		{"git status", []string{"git", "status"}, true},
		{"git push origin main", []string{"git", "push", "origin"}, false},
		{"", nil, true},
	}
	for _, tt := range tests {
		if got := signature(tt.cmd); !slices.Equal(got, tt.sig) {
			t.Errorf("signature(%q) = %q, want %q", tt.cmd, got, tt.sig)
		}
		if got := trivialCommand(tt.cmd); got != tt.trivial {
			t.Errorf("trivialCommand(%q) = %v, want %v", tt.cmd, got, tt.trivial)
		}
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"npm run build", "npx next dev", true},
		{"docker-compose up -d", "docker compose up -d", true},
		{"pip install -r requirements.txt", "uv pip install -r requirements.txt", true},
		{"make migrate", "just migrate", true},
		{"npm run lint", "eslint --fix src", false},
		{"cargo build", "git push", false},
	} {
		if got := sameFamily(tt.a, tt.b); got != tt.want {
			t.Errorf("sameFamily(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestErrorLines(t *testing.T) {
	tests := []struct{ in, best, both string }{
		{"npm warn Unknown env config\n> Build error occurred\n[TypeError: generate is not a function]",
			"TypeError: generate is not a function", "TypeError: generate is not a function; Build error occurred"},
		{"/bin/bash: line 1: docker-compose: command not found", "docker-compose: command not found", "docker-compose: command not found"},
		{"(eval):1: no such file or directory: types/README.md", "no such file or directory: types/README.md", "no such file or directory: types/README.md"},
		{"", "", ""},
	}
	for _, tt := range tests {
		best, both := errorLines(tt.in)
		if best != tt.best || both != tt.both {
			t.Errorf("errorLines(%q) = %q, %q; want %q, %q", tt.in, best, both, tt.best, tt.both)
		}
	}
}

func TestTodos(t *testing.T) {
	h := NewHeuristic(Config{})
	tests := []struct {
		last string
		want []string
	}{
		{"Done. TODO: the filter does not persist in the URL yet.", []string{"The filter does not persist in the URL yet"}},
		{"## Next steps\n- Wire the cache into the CLI\n- Would you like me to add tests?\n\nAll else works.", []string{"Wire the cache into the CLI"}},
		{"Done. Remaining work:\n- eviction is missing\n- docs", []string{"Eviction is missing"}}, // "docs" is too short to say anything
		{"I couldn't reproduce the crash on Linux; it may be macOS only.", []string{"I couldn't reproduce the crash on Linux; it may be macOS only"}},
		{"Created the TODO app. Would you like me to add a dark mode? You can now run npm run dev.", nil},
		{"All tests pass.", nil},
	}
	for _, tt := range tests {
		d := scriptDigest(t, "cwd: /x\n---\nuser: go\nassistant: "+strings.ReplaceAll(tt.last, "\n", "\n  ")+"\n", "")
		var got []string
		for _, c := range h.todos(d, newPaths("", mentions(""))) {
			got = append(got, strings.TrimSuffix(c.Fact, "."))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("todos of %q = %q, want %q", tt.last, got, tt.want)
		}
	}
}

// TestHeuristicSample: the provider-test session gives the statement the
// user asked to remember (the only candidate at the auto-approve bar),
// anchored to the manifest of the folder it names, the TODO, and no
// secret.
func TestHeuristicSample(t *testing.T) {
	d := testProject(t)
	os.WriteFile(filepath.Join(d.Meta.CWD, "web", "package.json"), []byte("{}"), 0o644)
	got, u, err := NewHeuristic(Config{}).Extract(context.Background(), d)
	if err != nil || u != (Usage{}) {
		t.Fatalf("Extract: %v, %+v", err, u)
	}
	if len(got) != 2 {
		t.Fatalf("Extract = %+v, want 2 candidates", got)
	}
	rule, todo := got[0], got[1]
	if rule.Confidence != confRemember || rule.Category != CategoryConvention || !slices.Equal(rule.Files, []string{"web/package.json"}) ||
		!strings.HasPrefix(rule.Fact, "Don't use npm here. We use pnpm in web/, always.") {
		t.Errorf("rule = %+v", rule)
	}
	if strings.Contains(rule.Fact, "sk-ant-api03") || strings.Contains(rule.Description, "sk-ant") {
		t.Errorf("the key reached a candidate: %q", rule.Fact)
	}
	if todo.Category != CategoryTodo || todo.Confidence >= 0.85 || !strings.Contains(todo.Description, "does not persist in the URL") {
		t.Errorf("todo = %+v", todo)
	}
}

// TestHeuristicGolden keeps the heuristic's output on every labelled
// session in testdata/heuristic.golden; -update rewrites it.
func TestHeuristicGolden(t *testing.T) {
	h := NewHeuristic(Config{})
	var b strings.Builder
	for _, set := range []string{"eval", "holdout"} {
		for _, s := range evalSessions(t, set) {
			cands, _, err := h.Extract(context.Background(), s.digest)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "== %s/%s\n", set, s.name)
			for _, c := range cands {
				data, _ := json.Marshal(c)
				b.Write(data)
				b.WriteByte('\n')
			}
		}
	}
	path := filepath.Join("testdata", "heuristic.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the heuristic's output changed; run go test -run TestHeuristicGolden -update and review the diff:\n%s", firstDiff(got, string(want)))
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return ""
}

// FuzzHeuristic feeds arbitrary prompts and last messages to the
// heuristic extractor: it must not panic, and what it returns must pass
// the same checks a model's reply does.
func FuzzHeuristic(f *testing.F) {
	f.Add("Don't use npm here. We use pnpm in web/, always. Remember that.", "Done. TODO: the filter does not persist in the URL yet.", "Which tools should we set up?", "Credo + Dialyxir", "npx create-vite@latest web")
	f.Add("No, put it in internal/retry instead; pkg/ is only for the public API.", "## Next steps\n- Wire the cache\n- docs", "Which rig do these beads belong to? (one app)", "No, we use pnpm, never npm. Remember that.", `yes "" | npx create-vite@latest web`)
	f.Add("Let's go with SQLite since it must work offline. I'm a data scientist.", "I couldn't fix the arm64 build.", "Shall I proceed?", "Yes", "npm run build")
	f.Add("Remember that\n\n```\nalways\n```", "Remaining work:", "What (", "", "")
	f.Add("scrolling in the log view still does not work (the page eats it)?", "The command is waiting for input.", "", "x", "echo | ")
	h := NewHeuristic(Config{})
	f.Fuzz(func(t *testing.T, prompt, last, question, reply, cmd string) {
		ask := &transcript.ToolCall{Name: "AskUserQuestion", Outcome: transcript.OutcomeOK, Turn: 2,
			Questions: []transcript.Question{{Text: question, Options: []string{reply + ": " + last}, Answer: reply}}}
		rejected := &transcript.ToolCall{Name: "Bash", Arg: cmd, Outcome: transcript.OutcomeRejected, Feedback: reply, Turn: 2}
		first := &transcript.ToolCall{Name: "Bash", Arg: cmd, Outcome: transcript.OutcomeOK, Turn: 2}
		again := &transcript.ToolCall{Name: "Bash", Arg: "yes | " + cmd, Outcome: transcript.OutcomeOK, Turn: 2}
		d := &transcript.Digest{Meta: transcript.Meta{CWD: "/nonexistent"}, Turns: []*transcript.Turn{
			{Index: 1, Kind: transcript.TurnPrompt, Items: []transcript.Item{
				{Kind: transcript.ItemAssistant, Text: "I edited the file."}}},
			{Index: 2, Kind: transcript.TurnPrompt, Items: []transcript.Item{
				{Kind: transcript.ItemUser, Text: prompt},
				{Kind: transcript.ItemTool, Tool: ask},
				{Kind: transcript.ItemTool, Tool: rejected},
				{Kind: transcript.ItemTool, Tool: first},
				{Kind: transcript.ItemAssistant, Text: last},
				{Kind: transcript.ItemTool, Tool: again},
				{Kind: transcript.ItemAssistant, Text: last}}},
		}}
		cands, _, err := h.Extract(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cands {
			if n := len([]rune(c.Description)); n == 0 || n > 150 || strings.ContainsAny(c.Description, "\r\n") {
				t.Errorf("description %q: %d characters or several lines", c.Description, n)
			}
			if c.Fact == "" || len([]rune(c.Fact)) > maxFactLen || !c.Type.Valid() || !slices.Contains(Categories, c.Category) ||
				c.Confidence <= 0 || c.Confidence > 1 {
				t.Errorf("invalid candidate %+v", c)
			}
		}
	})
}
