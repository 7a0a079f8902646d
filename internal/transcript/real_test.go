package transcript

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// realDir holds real Claude Code transcripts shared by the project (see its
// README). They are read in place, never copied into this repository.
var realDir = sharedDir("bench", "transcripts")

// sharedDir finds the project's shared folder beside the repository: the
// first folder up from here that holds shared/<elem...>, so the tests find
// it from a worktree nested deeper than the main checkout too. It returns
// the path under the parent folder when none is found (the test skips).
func sharedDir(elem ...string) string {
	rel := filepath.Join(append([]string{"shared"}, elem...)...)
	dir, err := filepath.Abs(".")
	if err != nil {
		return filepath.Join("..", "..", "..", rel)
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, rel)); err == nil && fi.IsDir() {
			return filepath.Join(dir, rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join("..", "..", "..", rel)
		}
		dir = parent
	}
}

func realTranscript(t testing.TB, name string) string {
	t.Helper()
	path := filepath.Join(realDir, name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("real transcripts not available: %v", err)
	}
	return path
}

// realCase is what a real transcript must give.
type realCase struct {
	file                  string
	stats                 Stats
	turns, agents, calls  int
	errors, failures      int
	created, edited, read int
	holds                 []string // lines or fragments the digest holds
	lacks                 []string // fragments it must not hold
	maxChars              int      // the digest's size at most, in characters
}

func TestRealTranscripts(t *testing.T) {
	tests := []realCase{
		{
			file:  "spotter__tool_heavy.jsonl",
			stats: Stats{Lines: 39, Entries: 24, Skipped: 15},
			turns: 3, calls: 6, read: 1,
			holds: []string{
				"claude-code: 2.1.38",
				"user: start phoenix in background",
				"tool: Bash `mix phx.server` (background) -> ok",
				"user: /mcp\n",
				"tool: WebSearch xterm.js scroll not working embedded page captures scroll events -> ok",
				"note: interrupted by user",
			},
			maxChars: 1100,
		},
		{
			file:  "spotter__subagent.jsonl",
			stats: Stats{Lines: 96, Entries: 49, Skipped: 47},
			turns: 2, calls: 16, created: 1, read: 1,
			holds: []string{
				"user: /handgemacht:create-beads websearch to learn how to fastest setup credo",
				"tool: Task Draft beads for linting setup (Plan) -> ok\n  | Excellent!",
				"  user (answer): No rig\n    question: Which rig do these beads belong to?",
				"  user (answer): Credo + Dialyxir + mix_audit\n    question: Which tools should we set up?\n    options: All four (Recommended): Credo + Dialyxir + mix_audit + Sobelow | Credo + Dialyxir + mix_audit: Skip Sobelow",
				"tool: Bash `bd dep add spotter-0p7.2 spotter-0p7.1` -> ok",
				"created: plan.md",
			},
			lacks:    []string{"User has answered your questions"},
			maxChars: 8000,
		},
		{
			file:  "ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl",
			stats: Stats{Lines: 438, Entries: 438},
			turns: 7, agents: 5, calls: 167, errors: 23, failures: 12, created: 25, edited: 1, read: 5,
			holds: []string{
				"user: /orchestrator create TODO app by Next.js",
				"tool: Task Build TODO components (general-purpose) -> ok (work in turn 2)",
				"## turn 2: agent 6690d10e, for turn 1 (2025-09-03T00:52:54Z)",
				"parent agent: Create React components for the TODO app",
				"- Bash `npm run build` failed in turn 6 (4 times): [TypeError: generate is not a function]\n  not fixed",
				"src/hooks/useTodos.test.ts(6,33): error TS2307: Cannot find module '@testing-library/react'",
				"fixed in turn 3 by Edit todo-app/src/app/page.tsx, after Read todo-app/src/app/page.tsx",
				"user: Thanks! Please update CLAUDE.md for current changes",
			},
			// The summary line titles another session: its leaf is not here.
			lacks:    []string{"title:", "npm warn", "user: Create React components"},
			maxChars: 37000,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) { checkReal(t, tt) })
	}
}

func checkReal(t *testing.T, tt realCase) {
	path := realTranscript(t, tt.file)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d, err := Build(context.Background(), r, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Stats(); got != tt.stats {
		t.Errorf("Stats() = %+v, want %+v", got, tt.stats)
	}
	if r.Offset() != info.Size() {
		t.Errorf("Offset() = %d, want the file size %d", r.Offset(), info.Size())
	}
	agents, errs, unpaired := 0, 0, 0
	for _, turn := range d.Turns {
		if turn.Kind == TurnAgent {
			agents++
		}
	}
	calls := d.calls()
	for _, c := range calls {
		switch c.Outcome {
		case OutcomeError:
			errs++
		case OutcomeNone:
			unpaired++
		}
	}
	f := d.Files()
	got := []int{len(d.Turns), agents, len(calls), errs, unpaired, len(d.Failures()), len(f.Created), len(f.Edited), len(f.Read)}
	want := []int{tt.turns, tt.agents, tt.calls, tt.errors, 0, tt.failures, tt.created, tt.edited, tt.read}
	if !slices.Equal(got, want) {
		t.Errorf("turns, agents, calls, errors, unpaired, failures, created, edited, read = %v, want %v", got, want)
	}
	text := d.String()
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
	if n := len(text); n > tt.maxChars {
		t.Errorf("digest has %d characters, want at most %d", n, tt.maxChars)
	}
	t.Logf("digest: %d characters, %d tokens", len(text), d.Tokens())
	for _, c := range calls {
		if c.Result == "" {
			continue
		}
		report := "" // its longest line: a distinctive part of it
		for line := range strings.SplitSeq(c.Result, "\n") {
			if len(line) > len(report) {
				report = line
			}
		}
		if n := strings.Count(text, report); n != 1 {
			t.Errorf("the report of %s %s appears %d times, want once", c.Name, c.Arg, n)
		}
	}
	for _, absent := range []string{"<system-reminder>", "<command-name>", "signature", "hook_progress", "agentId: "} {
		if strings.Contains(text, absent) {
			t.Errorf("digest holds %q", absent)
		}
	}
	if red := redact.New(redact.Options{}).String(text); red != text {
		t.Errorf("the digest of a transcript without secrets changes under redaction")
	}
}
