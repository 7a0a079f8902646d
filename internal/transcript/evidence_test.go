package transcript

import (
	"path/filepath"
	"strings"
	"testing"
)

// evidenceCase is a small transcript showing one kind of evidence a
// digest must keep, in several shapes, and what its digest must and must
// not hold. Each has a golden digest in testdata/evidence.
type evidenceCase struct {
	name  string
	holds []string
	lacks []string
}

var evidenceCases = []evidenceCase{
	{
		// A command piped into tail, head or grep exits with the filter's
		// status: the failure is in the output.
		name: "pipes",
		holds: []string{
			"tool: Bash `cd /home/dev/shop && go test ./internal/cart/... 2>&1 | tail -20` -> ok (status of tail; the output reports a failure)",
			"  ! coupon_test.go:42: Total() = 80, want 90",
			"tool: Bash `go test ./internal/cart/... 2>&1 | tail -20` -> ok (status of tail)\n  | ok",
			`Expected: "10.00"`,
			"1 failed, 12 passed in 0.31s",
			"- Bash `cd /home/dev/shop && go test ./internal/cart/... 2>&1 | tail -20` failed in turn 1: coupon_test.go:42: Total() = 80, want 90\n  fixed in turn 1 by Bash `go test ./internal/cart/... 2>&1 | tail -20`, after Edit internal/cart/coupon.go",
			"- Bash `cd web && npm test 2>&1 | head -40` failed in turn 1",
			"tool: Bash `find . -name '*.go' | head -5` -> ok\n",
		},
		lacks: []string{"./internal/cart/cart.go"},
	},
	{
		// Error lines are chosen by what they tell: a location, a limit,
		// a typed error, an impossibility; not by the word "error".
		name: "errors",
		holds: []string{
			"Function is too complex (cyclomatic complexity is 13, max is 9).",
			"lib/spotter/transcripts/parser.ex:88:7",
			"The pattern can never match the type.",
			"lib/spotter/sessions.ex:57:pattern_match",
			"-> error (exit 2)",
			"[TypeError: generate is not a function]",
			"src/hooks/useTodos.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
			`Module '"../hooks"' has no exported member 'useTodo'.`,
			"internal/cart/cart.go:31:9: undefined: applyOnce",
			"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
			"12:7   error    'total' is assigned a value but never used",
			"- Bash `mix dialyzer` failed in turn 1: The pattern can never match the type.",
			"- Bash `npm run build` failed in turn 1: [TypeError: generate is not a function]",
		},
		lacks: []string{"npm warn", `\n`, "Exit code", "Halting VM", "____"},
	},
	{
		// Test, build, lint and commit commands keep their last lines when
		// they succeed; a status that || true hides is not trusted.
		name: "checks",
		holds: []string{
			"tool: Bash `go vet ./...` -> ok\n",
			"prerendered as static content",
			"12 tests, 0 failures",
			"tool: Bash `cargo test --quiet || true` -> ok (status of true; the output reports a failure)",
			"src/parse.rs:77:9",
			"[main 4f2e9c1] cart: apply a coupon once",
			"tool: Bash `ls internal/cart` -> ok\n",
			"- Bash `cargo test --quiet || true` failed in turn 1",
		},
		lacks: []string{"cart.go\ncoupon.go", "Creating an optimized"},
	},
	{
		// A compaction summary is cut by section: the small sections
		// (errors and fixes, the user's messages, pending work) stay whole.
		name: "compaction_sections",
		holds: []string{
			"4. Errors and fixes:",
			`"checkpoint.go:41: offset 1500, want 1000"`,
			"copylocks: Save passes lock by value",
			"Don't use a database table for the checkpoint",
			"7. Pending Tasks:",
			"Remove the checkpoint file after a successful run",
			"9. Optional Next Step:",
			"chars cut",
		},
	},
	{
		// Rejecting a tool call is the user's say, not a failure.
		name: "rejection",
		holds: []string{
			"tool: Edit internal/cart/cart_gen.go -> rejected\n  user (rejected): Don't edit the generated file; change the template in gen/templates/cart.tmpl and run make gen.\n",
			"tool: Bash `git push origin main` -> rejected\n",
		},
		lacks: []string{"## failures", "not fixed", "Note: The user's next message", "doesn't want to proceed"},
	},
	{
		// An answer is the user's, with the options they chose from.
		name: "answers",
		holds: []string{
			"  user (answer): Credo + Dialyxir + mix_audit\n    question: Which tools should we set up?\n    options: All four (Recommended): Credo + Dialyxir + mix_audit + Sobelow | Credo + Dialyxir + mix_audit: Skip Sobelow (Phoenix security scanner) | Custom selection: I'll specify which ones\n",
			"  user (answer): credo, deps.audit\n    question: Which checks should run in CI? (several allowed)",
			"  user (answer): config/credo.exs\n    question: Where should the config live?\n    options: .credo.exs at the root: the default | config/credo.exs: with the other config\n",
		},
		lacks: []string{"User has answered your questions"},
	},
	{
		// A sub-agent's work arrives with its parent, after the turn that
		// started it; its instructions are the parent agent's; its report
		// is given once.
		name: "agents",
		holds: []string{
			"tool: Task Implement rate limiter (general-purpose) -> ok (work in turn 2)\n  | Added internal/api/ratelimit.go",
			"## turn 2: agent b71c2d9, for turn 1",
			"parent agent: Add a token-bucket rate limiter",
			"ratelimit_test.go:20: allowed 101 requests, want at most 100",
			"## turn 3 (",
			"user: Thanks. Commit it.",
		},
		lacks: []string{"user: Add a token-bucket", "agentId"},
	},
	{
		name:  "title",
		holds: []string{"title: Coupon codes made case-insensitive\n"},
		lacks: []string{"Empty Repo Setup"},
	},
	{
		// A summary whose leaf is not in the transcript titles another session.
		name:  "title_foreign",
		lacks: []string{"title:", "Empty Repo Setup"},
	},
}

func TestEvidenceGolden(t *testing.T) {
	for _, tt := range evidenceCases {
		t.Run(tt.name, func(t *testing.T) {
			main := filepath.Join("testdata", "evidence", tt.name+".jsonl")
			agents, err := SubagentFiles(main)
			if err != nil {
				t.Fatal(err)
			}
			text := digestFiles(t, Options{}, append([]string{main}, agents...)...).String()
			golden(t, filepath.Join("evidence", tt.name+".digest"), text)
			for _, h := range tt.holds {
				if !strings.Contains(text, h) {
					t.Errorf("digest lacks %q", h)
				}
			}
			for _, l := range tt.lacks {
				if strings.Contains(text, l) {
					t.Errorf("digest holds %q", l)
				}
			}
			if n := strings.Count(text, "Added internal/api/ratelimit.go"); n > 1 {
				t.Errorf("the sub-agent's report appears %d times, want once", n)
			}
		})
	}
}
