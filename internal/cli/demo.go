package cli

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mnemo-dev/mnemo/internal/project"
)

//go:embed testdata/demo/sample-session.jsonl
var sampleSession []byte

func newDemoCmd(f *Factory) *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole pipeline on a sample session, in a temporary project",
		Long: `Show what mnemo does, end to end, without touching your projects or your
~/.mnemo: in a temporary folder it creates a git project with a vault and a
few memories, shows what SessionStart and a prompt would inject, then sends
a bundled sample Claude Code session through the capture path (hook,
queue, worker, offline heuristic extractor, consolidation), approves a
draft and recalls it. Nothing leaves the machine.`,
		Example: `  mnemo demo
  go run ./cmd/mnemo demo --keep`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := newDemo(f)
			if err != nil {
				return err
			}
			if !keep {
				defer os.RemoveAll(d.base)
			}
			if err := d.run(cmd.Context()); err != nil {
				return err
			}
			if keep {
				fmt.Fprintf(f.IO.Out, "\nThe demo project is in %s (MNEMO_HOME=%s).\n", d.project, filepath.Join(d.home, ".mnemo"))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary project to look at afterwards")
	return cmd
}

// demo is a temporary project and home.
type demo struct {
	parent              *Factory
	base, home, project string
}

func newDemo(parent *Factory) (*demo, error) {
	base, err := os.MkdirTemp("", "mnemo-demo-")
	if err != nil {
		return nil, err
	}
	d := &demo{parent: parent, base: base, home: filepath.Join(base, "home"), project: filepath.Join(base, "shop")}
	for _, dir := range []string{d.home, filepath.Join(d.project, ".git")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	// A minimal .git folder makes the folder a repository for mnemo.
	if err := os.WriteFile(filepath.Join(d.project, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
		return nil, err
	}
	return d, nil
}

// mnemo runs one mnemo command in the demo's world and returns its stdout.
func (d *demo) mnemo(ctx context.Context, stdin string, args ...string) (string, error) {
	env := map[string]string{
		"MNEMO_HOME": filepath.Join(d.home, ".mnemo"), "CLAUDE_CONFIG_DIR": filepath.Join(d.home, ".claude"),
		"MNEMO_WORKER": "off", "MNEMO_EXTRACTOR": "heuristic",
	}
	var out, errOut bytes.Buffer
	f := NewFactory(&IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
	f.Env = project.Env{Home: d.home, Getenv: func(k string) string { return env[k] }}
	f.Getwd = func() (string, error) { return d.project, nil }
	f.Now = d.parent.Now
	if code := run(ctx, args, f); code != 0 {
		return "", fmt.Errorf("demo: mnemo %s: %s", strings.Join(args, " "), strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

func (d *demo) run(ctx context.Context) error {
	w := d.parent.IO.Out
	step := func(title string) { fmt.Fprintf(w, "\n== %s\n", title) }
	show := func(cmd, out string) {
		fmt.Fprintf(w, "$ %s\n", cmd)
		if out = strings.TrimRight(out, "\n"); out != "" {
			fmt.Fprintln(w, indent(out))
		}
	}
	step("A project with a vault: one fact per file, and a MEMORY.md index")
	out, err := d.mnemo(ctx, "", "init", "--no-agent")
	if err != nil {
		return err
	}
	show("mnemo init", out)
	for _, m := range demoMemories {
		if _, err := d.mnemo(ctx, "", append([]string{"add"}, m...)...); err != nil {
			return err
		}
	}
	out, _ = d.mnemo(ctx, "", "list")
	show("mnemo list", out)

	step("What a new Claude Code session starts with (SessionStart hook)")
	payload := fmt.Sprintf(`{"session_id":"demo-1","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, d.project)
	out, _ = d.mnemo(ctx, payload, "hook", "session-start")
	show("mnemo hook session-start   # stdin: the hook's JSON", additionalContext(out))

	step("A prompt about a remembered topic (UserPromptSubmit hook): only what clears the bar, once per session")
	payload = fmt.Sprintf(`{"session_id":"demo-1","cwd":%q,"prompt":"Why does the migration fail with permission denied on the staging database?"}`, d.project)
	out, _ = d.mnemo(ctx, payload, "hook", "user-prompt-submit")
	show("mnemo hook user-prompt-submit", additionalContext(out))

	return d.capture(ctx, step, show)
}

// capture sends the sample session through the capture path.
func (d *demo) capture(ctx context.Context, step func(string), show func(string, string)) error {
	step("The session ends: the SessionEnd hook queues its transcript")
	dir := filepath.Join(d.home, ".claude", "projects", project.ClaudeSlug(d.project))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, "7d3c9a1e-5b2f-4c8e-9a6d-1f0e2b3c4d5e.jsonl")
	if err := os.WriteFile(path, sampleSession, 0o644); err != nil {
		return err
	}
	payload := fmt.Sprintf(`{"session_id":"7d3c9a1e-5b2f-4c8e-9a6d-1f0e2b3c4d5e","transcript_path":%q,"cwd":%q,"hook_event_name":"SessionEnd","reason":"other"}`, path, d.project)
	if _, err := d.mnemo(ctx, payload, "hook", "session-end"); err != nil {
		return err
	}
	out, _ := d.mnemo(ctx, "", "queue")
	show("mnemo queue", out)

	step("The worker digests, redacts, extracts (offline heuristic) and consolidates")
	if _, err := d.mnemo(ctx, "", "worker", "--once"); err != nil {
		return err
	}
	out, _ = d.mnemo(ctx, "", "list")
	show("mnemo list    # what cleared the auto-approve bar went to the vault", out)
	out, _ = d.mnemo(ctx, "", "inbox")
	show("mnemo inbox   # the rest waits for review", out)

	step("Review: approve a draft, and it is recalled like any memory")
	drafts := strings.Fields(out)
	if len(drafts) == 0 {
		return nil
	}
	out, err := d.mnemo(ctx, "", "approve", drafts[0])
	if err != nil {
		return err
	}
	show("mnemo approve "+drafts[0], out)
	out, _ = d.mnemo(ctx, "", "recall", "compare prices as strings", "--limit", "3")
	show(`mnemo recall "compare prices as strings"`, out)
	out, _ = d.mnemo(ctx, "", "stats")
	show("mnemo stats", out)
	return nil
}

var demoMemories = [][]string{
	{"--type", "feedback", "-d", "Never state a figure without verifying it from a source", "The user corrected two guessed numbers; cite where each figure comes from."},
	{"--type", "feedback", "-d", "Write Go tests as tables with named cases", "The user asked twice for table-driven tests with got/want messages."},
	{"--type", "feedback", "-d", "Keep error messages lowercase, no final period", "Wrap with %w and say what was being done."},
	{"--user", "--type", "user", "-d", "The user is a backend engineer who prefers small pull requests", "Go and PostgreSQL mostly; keep PRs under 300 lines."},
	{"--type", "project", "-d", "Deploys go through make deploy from a clean tree", "The old scripts/deploy.sh was removed on 2026-09-14."},
	{"--type", "project", "-d", "The staging database is read-only for the app user", "Migrations run as the migrator role; the app user gets permission denied on DDL."},
}

// additionalContext pulls the injected text out of a hook's JSON answer.
func additionalContext(out string) string {
	var v struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if json.Unmarshal([]byte(out), &v) != nil {
		return "(nothing injected)"
	}
	if v.HookSpecificOutput.AdditionalContext == "" {
		return "(nothing injected)"
	}
	return v.HookSpecificOutput.AdditionalContext
}

func indent(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
