package extract

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestBrokenCheck: a test, build or lint command that fails to the end of
// the session is a TODO, never advice to stop running it, even when the
// session went on with another command of its family.
func TestBrokenCheck(t *testing.T) {
	tests := []struct {
		name, script, words string
	}{
		{"build then dev server", `cwd: /home/dev/app
---
user: Make the app build.
tool: Bash npm run build => error: [TypeError: generate is not a function]
tool: Bash npm run build => error: [TypeError: generate is not a function]
assistant: Let me try the dev server instead.
tool: Bash npx next dev --port 3000 => ok
assistant: The dev server runs.
`, "generate is not a function"},
		{"go test once", `cwd: /home/dev/svc
---
user: Add the retry.
tool: Edit retry.go => ok
tool: Bash go test ./... => error: --- FAIL: TestRetry (0.00s)
  retry_test.go:12: got 2 attempts, want 3
assistant: I added the retry.
`, "want 3"},
		{"cargo clippy abandoned for cargo build", `cwd: /home/dev/crate
---
user: Clean up the warnings.
tool: Bash cargo clippy -- -D warnings => error: error: this function has too many arguments (9/7)
tool: Bash cargo clippy -- -D warnings => error: error: this function has too many arguments (9/7)
tool: Bash cargo build => ok
assistant: It builds.
`, "too many arguments"},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cands, _, err := h.Extract(context.Background(), scriptDigest(t, tt.script, ""))
			if err != nil {
				t.Fatal(err)
			}
			todo := false
			for _, c := range cands {
				if c.Category == CategoryDeadEnd {
					t.Errorf("dead end %q for a broken check", c.Description)
				}
				if c.Category == CategoryTodo && strings.Contains(c.Description+c.Fact, tt.words) {
					todo = true
				}
			}
			if !todo {
				t.Errorf("no TODO naming %q in %+v", tt.words, cands)
			}
		})
	}
}

// TestReplies: the user's answers to the agent's questions and the
// feedback they give when rejecting a tool call are their words: each
// answer is a decision keyed by what the question settles, each rule in
// feedback a candidate; answers for the moment only are not kept.
func TestReplies(t *testing.T) {
	ask := func(q, opts, answer string) string {
		return `tool: AskUserQuestion {"questions":[{"question":"` + q + `","options":[` + opts + `]}]} => ok: User has answered your questions: "` + q + `"="` + answer + `". You can now continue with the user's answers in mind.`
	}
	tests := []struct {
		name, events string
		want         []string // descriptions, in order
		category     string
	}{
		{"which noun should we", ask("Which database should we use for tests?", `{"label":"SQLite","description":"In memory, no server"},{"label":"Postgres","description":"The production engine"}`, "SQLite"),
			[]string{"Database to use for tests: SQLite"}, CategoryDecision},
		{"which noun do subject verb", ask("Which package do these handlers belong to? (the repo has two)", `{"label":"api","description":"The public API"},{"label":"admin","description":"Internal tools"}`, "admin"),
			[]string{"Package these handlers belong to: admin"}, CategoryDecision},
		{"other shape kept as asked", ask("How should errors be reported to the caller?", ``, "As problem+json bodies"),
			[]string{"How should errors be reported to the caller: As problem+json bodies"}, CategoryDecision},
		{"about the agent's manner", ask("Should I ask before running migrations from now on?", `{"label":"Yes","description":""},{"label":"No","description":""}`, "Yes"),
			[]string{"Should I ask before running migrations from now on: Yes"}, CategoryPreference},
		{"for the moment only", ask("Shall I proceed with the refactor?", `{"label":"Yes","description":""}`, "Yes"), nil, ""},
		{"now", ask("Should I run the migration now?", `{"label":"Yes","description":""}`, "Yes"), nil, ""},
		{"rejection with a rule", `tool: Bash npm install left-pad => error: The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:
  No, we use pnpm in this repo, never npm.`,
			[]string{"We use pnpm in this repo, never npm"}, CategoryConvention},
		{"rejection with an instruction", `tool: Edit db/schema.sql => error: The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:
  Don't edit db/schema.sql by hand, always regenerate it with make schema.`,
			[]string{"Don't edit db/schema.sql by hand, always regenerate it with make schema"}, CategoryConvention},
		{"rejection without words", `tool: Bash rm -rf build => error: The user doesn't want to proceed with this tool use. The tool use was rejected.`, nil, ""},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "cwd: /home/dev/app\n---\nuser: Set up the test database.\n" + tt.events + "\nassistant: Done.\n"
			cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cands {
				got = append(got, c.Description)
				if c.Category != tt.category {
					t.Errorf("%q: category %s, want %s", c.Description, c.Category, tt.category)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("descriptions = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestReported: a problem the user reports in a prompt, that nothing later
// says was fixed, is open work; a vague "that doesn't work" or a problem
// fixed later in the session is not.
func TestReported(t *testing.T) {
	tests := []struct {
		name, events string
		want         []string
	}{
		{"still does not work, a question", "user: scrolling the log panel still does not work on Safari (maybe the page eats the wheel events)? look it up\nassistant: Let me search.",
			[]string{"Unresolved: Scrolling the log panel still does not work on Safari (maybe the page eats the wheel events)"}},
		{"is broken", "user: The CSV export is broken for accounts with no orders.\nassistant: I'll look.",
			[]string{"Unresolved: The CSV export is broken for accounts with no orders"}},
		{"won't connect", "user: The worker won't connect to Redis when TLS is on.\nassistant: Checking the config.",
			[]string{"Unresolved: The worker won't connect to Redis when TLS is on"}},
		{"fixed later by the assistant", "user: The CSV export is broken for accounts with no orders.\ntool: Edit export.go => ok\nassistant: Fixed: the export now handles empty accounts.", nil},
		{"fixed, says the user", "user: The sidebar doesn't render on mobile widths at all.\ntool: Edit sidebar.css => ok\nuser: works now, thanks", nil},
		{"vague", "user: No, that still doesn't work for me.\nassistant: Let me try again.", nil},
		{"an instruction, not a report", "user: Don't build the docs in CI.\nassistant: OK.", nil},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "cwd: /home/dev/app\n---\n" + tt.events + "\n"
			cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cands {
				if c.Category == CategoryTodo {
					got = append(got, c.Description)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("todos = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestUnattended: a command that stopped at an interactive prompt and then
// ran with its answers piped in or a flag that skips them is a dead end
// with that workaround; not when the last run still waited, or nothing
// said it was waiting.
func TestUnattended(t *testing.T) {
	tests := []struct {
		name, events, want string
	}{
		{"yes piped in", "tool: Bash npx create-vite@latest web --template react => ok\nassistant: The command is waiting for input about the package name.\ntool: Bash echo \"\" | npx create-vite@latest web --template react => ok\nassistant: Still prompting for the framework.\ntool: Bash yes \"\" | npx create-vite@latest web --template react => ok\nassistant: The project was created.",
			"Run `npx create-vite@latest web` unattended: it waits for interactive answers"},
		{"a flag", "tool: Bash cd infra && terraform apply => ok\nassistant: It prompts for confirmation before applying.\ntool: Bash cd infra && terraform apply -auto-approve -input=false => ok\nassistant: Applied.",
			"Run `terraform apply` unattended: it waits for interactive answers"},
		{"--yes", "tool: Bash npx shadcn@latest init => ok\nassistant: It seems interactive: it asks about the style.\ntool: Bash npx shadcn@latest init --yes => ok\nassistant: Initialised with the defaults.",
			"Run `npx shadcn@latest init` unattended: it waits for interactive answers"},
		{"still waiting at the end", "tool: Bash npm init => ok\nassistant: It is waiting for input.\ntool: Bash yes | npm init => ok\nassistant: It is still waiting for input on the licence.", ""},
		{"no prompt seen", "tool: Bash npm install => ok\nassistant: Installed.\ntool: Bash yes | npm install => ok\nassistant: Done.", ""},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "cwd: /home/dev/app\n---\nuser: Scaffold the app.\n" + tt.events + "\n"
			cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, c := range cands {
				if c.Category == CategoryDeadEnd {
					got = c.Description
				}
			}
			if got != tt.want {
				t.Errorf("dead end %q, want %q", got, tt.want)
			}
		})
	}
}

// TestDistil: what the user asked to remember becomes a fact without the
// request, the fillers and the correction around it, in description and
// body alike.
func TestDistil(t *testing.T) {
	tests := []struct{ said, want string }{
		{"No, we use pnpm, not npm — remember that", "We use pnpm, not npm"},
		{"Remember that we use pnpm, not npm, in web/.", "We use pnpm, not npm, in web/"},
		{"Please remember: the staging DB is read-only, so never run migrations there.", "The staging DB is read-only, so never run migrations there"},
		{"ok so basically we always squash merge PRs here, keep that in mind", "We always squash merge PRs here"},
		{"Just so you know, I prefer short commit messages.", "I prefer short commit messages"},
		{"Note for the future: integration tests need docker running.", "Integration tests need docker running"},
		{"FYI, we never deploy on Fridays. Don't forget that for next time!", "We never deploy on Fridays"},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		src := "cwd: /home/dev/app\n---\nuser: Fix the build.\ntool: Bash make => ok\nassistant: Done.\nuser: " + tt.said + "\nassistant: Noted.\n"
		cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 1 {
			t.Errorf("%q: %d candidates, want 1: %+v", tt.said, len(cands), cands)
			continue
		}
		if c := cands[0]; c.Description != tt.want || strings.TrimRight(c.Fact, ".") != tt.want {
			t.Errorf("%q: description %q, fact %q; want %q", tt.said, c.Description, c.Fact, tt.want)
		}
	}
}

// TestDeadEnds: a command given up for another that worked is a rule
// naming both; a command that only started in the background is no fix.
func TestDeadEnds(t *testing.T) {
	tests := []struct {
		name, events, want string
	}{
		{"compose v1 to v2", "tool: Bash docker-compose up -d => error: bash: docker-compose: command not found\ntool: Bash docker-compose up -d => error: bash: docker-compose: command not found\ntool: Bash docker compose up -d => ok",
			"Use `docker compose up -d`, not `docker-compose up -d` (docker-compose: command not found)"},
		{"pip to uv", "tool: Bash pip install -r requirements.txt => error: error: externally-managed-environment\ntool: Bash pip install --user -r requirements.txt => error: error: externally-managed-environment\ntool: Bash uv pip install -r requirements.txt => ok",
			"Use `uv pip install -r requirements.txt`, not `pip install -r requirements.txt` (error: externally-managed-environment)"},
		{"a background start is no fix", "tool: Bash npm start => error: Error: Cannot find module 'dotenv'\ntool: Bash npm start => error: Error: Cannot find module 'dotenv'\ntool: Bash& npx serve dist => ok", ""},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "cwd: /home/dev/app\n---\nuser: Run it.\n" + tt.events + "\nassistant: Done.\n"
			cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, c := range cands {
				if c.Category == CategoryDeadEnd {
					got = c.Description
				}
			}
			if got != tt.want {
				t.Errorf("dead end %q, want %q", got, tt.want)
			}
		})
	}
}

// TestRuleType: an instruction about how the agent works with the user is
// feedback; one about the code of the project is a project convention.
func TestRuleType(t *testing.T) {
	tests := []struct {
		said string
		want memory.Type
	}{
		{"Always run the tests before you say you're done.", memory.TypeFeedback},
		{"Never commit without asking me first.", memory.TypeFeedback},
		{"Stop apologising and just fix it, from now on.", memory.TypeFeedback},
		{"From now on, don't run the e2e suite unless I ask.", memory.TypeFeedback},
		{"Always wrap errors with %w in this repo.", memory.TypeProject},
		{"Don't add comments that restate the code.", memory.TypeProject},
		{"Always use table-driven tests.", memory.TypeProject},
		{"We use pnpm in web/, never npm.", memory.TypeProject},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		src := "cwd: /home/dev/app\n---\nuser: Fix the build.\ntool: Bash make => ok\nassistant: Done.\nuser: " + tt.said + "\nassistant: Noted.\n"
		cands, _, err := h.Extract(context.Background(), scriptDigest(t, src, ""))
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 1 || cands[0].Type != tt.want {
			t.Errorf("%q: %+v, want one %s candidate", tt.said, cands, tt.want)
		}
	}
}
