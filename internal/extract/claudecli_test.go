package extract

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fakeClaude is a claude script that records each run (argv, environment,
// working folder, stdin) in its log folder and prints the reply scripted
// for that run: log/replyN, else log/reply; it exits with log/exitN.
const fakeClaude = `#!/bin/sh
log="$FAKE_CLAUDE_LOG"
i=1
while [ -e "$log/argv$i" ]; do i=$((i+1)); done
for a in "$@"; do printf '%s\0' "$a"; done > "$log/argv$i"
env > "$log/env$i"
pwd > "$log/pwd$i"
cat > "$log/stdin$i"
if [ -e "$log/reply$i" ]; then cat "$log/reply$i"; else cat "$log/reply"; fi
if [ -e "$log/exit$i" ]; then exit "$(cat "$log/exit$i")"; fi
`

// claudeRun is what the fake recorded of one run.
type claudeRun struct {
	argv  []string
	env   []string
	pwd   string
	stdin string
}

// installFakeClaude puts the fake claude first on PATH and returns its
// log folder.
func installFakeClaude(t *testing.T) string {
	t.Helper()
	bin, log := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "claude"), []byte(fakeClaude), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

func fakeRuns(t *testing.T, log string) []claudeRun {
	t.Helper()
	var runs []claudeRun
	for i := 1; ; i++ {
		n := strconv.Itoa(i)
		argv, err := os.ReadFile(filepath.Join(log, "argv"+n))
		if err != nil {
			return runs
		}
		env, _ := os.ReadFile(filepath.Join(log, "env"+n))
		pwd, _ := os.ReadFile(filepath.Join(log, "pwd"+n))
		stdin, _ := os.ReadFile(filepath.Join(log, "stdin"+n))
		runs = append(runs, claudeRun{
			argv:  strings.Split(strings.TrimSuffix(string(argv), "\x00"), "\x00"),
			env:   strings.Split(strings.TrimSpace(string(env)), "\n"),
			pwd:   strings.TrimSpace(string(pwd)),
			stdin: string(stdin),
		})
	}
}

// claudeResult renders what claude -p --output-format json prints.
func claudeJSON(result string) string {
	b, _ := json.Marshal(map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "duration_ms": 2130, "num_turns": 1,
		"result": result, "stop_reason": "end_turn", "session_id": "0bd2", "total_cost_usd": 0.0011,
		"usage": map[string]int{"input_tokens": 2095, "output_tokens": 503, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 5},
	})
	return string(b)
}

// claudeConfig is a config whose child environment carries the markers of
// a running Claude Code session, to see them scrubbed.
func claudeConfig(log string) Config {
	cfg := testConfig(ProviderClaudeCLI, "")
	cfg.APIKey = ""
	cfg.Environ = func() []string {
		return []string{
			"PATH=" + os.Getenv("PATH"), "HOME=/home/dev", "FAKE_CLAUDE_LOG=" + log, "LANG=C.UTF-8",
			"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_SESSION_ID=parent-session",
			"CLAUDE_CODE_SSE_PORT=4242", "CLAUDE_CODE_USE_BEDROCK=1", "MNEMO_CHILD=0",
		}
	}
	return cfg
}

func TestClaudeCLIIsolation(t *testing.T) {
	log := installFakeClaude(t)
	os.WriteFile(filepath.Join(log, "reply"), []byte(claudeJSON(goodReply)), 0o644)
	x := newExtractor(t, claudeConfig(log))
	d := testProject(t)
	got, u, err := x.Extract(context.Background(), d)
	if err != nil || len(got) != 1 || got[0].Name != "web-uses-pnpm" {
		t.Fatalf("Extract = %+v, %v; want the result's candidate", got, err)
	}
	if want := (Usage{InputTokens: 2200, OutputTokens: 503, Calls: 1}); u != want {
		t.Errorf("Usage = %+v, want %+v (cache tokens count as input)", u, want)
	}
	runs := fakeRuns(t, log)
	if len(runs) != 1 {
		t.Fatalf("claude ran %d times, want 1", len(runs))
	}
	r := runs[0]
	wantArgs := []string{"-p", "--model", "haiku", "--output-format", "json", "--max-turns", "1", "--tools", "",
		"--settings", `{"disableAllHooks":true}`, "--strict-mcp-config", "--no-session-persistence", "--system-prompt", systemPrompt}
	if !slices.Equal(r.argv, wantArgs) {
		t.Errorf("argv = %q,\nwant %q", r.argv[:min(len(r.argv), 14)], wantArgs[:14])
	}
	for _, want := range []string{"MNEMO_CHILD=1", "CLAUDE_CODE_USE_BEDROCK=1", "HOME=/home/dev", "LANG=C.UTF-8"} {
		if !slices.Contains(r.env, want) {
			t.Errorf("the child's environment lacks %s: %q", want, r.env)
		}
	}
	for _, kv := range r.env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || k == "CLAUDE_CODE_ENTRYPOINT" || k == "CLAUDE_CODE_SESSION_ID" || k == "CLAUDE_CODE_SSE_PORT" || kv == "MNEMO_CHILD=0" {
			t.Errorf("the child's environment keeps the parent's %s", kv)
		}
	}
	if r.pwd == d.Meta.CWD || r.pwd == "" {
		t.Errorf("claude ran in %q, want an empty folder of its own", r.pwd)
	}
	if _, err := os.Stat(r.pwd); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the child's folder %s was left behind", r.pwd)
	}
	if !strings.Contains(r.stdin, "<digest>") || !strings.Contains(r.stdin, "We use pnpm in web/") || strings.Contains(r.stdin, "sk-ant-api03-AbCd") {
		t.Errorf("stdin is not the redacted digest:\n%s", r.stdin)
	}
}

func TestClaudeCLIErrors(t *testing.T) {
	isErr := `{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["API Error: 529 overloaded"],"api_error_status":529,"usage":{"input_tokens":0,"output_tokens":0}}`
	tests := []struct {
		name  string
		files map[string]string
		runs  int
		check func(t *testing.T, got []Candidate, err error, runs []claudeRun)
	}{
		{"repair in one prompt", map[string]string{"reply1": claudeJSON("Here you go: []"), "reply": claudeJSON(goodReply)}, 2,
			func(t *testing.T, got []Candidate, err error, runs []claudeRun) {
				wantOne(t, got, err)
				in := runs[1].stdin
				if !strings.Contains(in, "<digest>") || !strings.Contains(in, "<previous_reply>\nHere you go: []\n</previous_reply>") || !strings.Contains(in, "not a JSON array") {
					t.Errorf("the repair prompt lacks the digest, the reply or the problem:\n%s", in)
				}
			}},
		{"is_error with an API status", map[string]string{"reply": isErr, "exit1": "1"}, 1,
			func(t *testing.T, _ []Candidate, err error, _ []claudeRun) {
				var ae *APIError
				if !errors.As(err, &ae) || ae.Status != 529 || !strings.Contains(err.Error(), "overloaded") {
					t.Errorf("Extract error = %v, want an *APIError 529 with claude's message", err)
				}
			}},
		{"exit status without JSON", map[string]string{"reply": "Error: not logged in\n", "exit1": "1"}, 1,
			func(t *testing.T, _ []Candidate, err error, _ []claudeRun) {
				if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(err.Error(), "not logged in") {
					t.Errorf("Extract error = %v, want the exit status and the output", err)
				}
			}},
		{"refusal", map[string]string{"reply": strings.Replace(claudeJSON("No."), `"end_turn"`, `"refusal"`, 1)}, 1,
			func(t *testing.T, _ []Candidate, err error, _ []claudeRun) {
				if !errors.Is(err, ErrRefused) {
					t.Errorf("Extract error = %v, want ErrRefused", err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := installFakeClaude(t)
			for name, content := range tt.files {
				os.WriteFile(filepath.Join(log, name), []byte(content), 0o644)
			}
			x := newExtractor(t, claudeConfig(log))
			got, _, err := x.Extract(context.Background(), testProject(t))
			runs := fakeRuns(t, log)
			if len(runs) != tt.runs {
				t.Errorf("claude ran %d times, want %d", len(runs), tt.runs)
			}
			tt.check(t, got, err, runs)
		})
	}
}

func TestChildEnv(t *testing.T) {
	in := []string{"PATH=/bin", "CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_OAUTH_TOKEN=tok",
		"CLAUDE_CONFIG_DIR=/c", "MNEMO_CHILD=", "MNEMO_HOME=/m", "ANTHROPIC_BASE_URL=http://x"}
	want := []string{"PATH=/bin", "CLAUDE_CODE_OAUTH_TOKEN=tok", "CLAUDE_CONFIG_DIR=/c", "MNEMO_HOME=/m", "ANTHROPIC_BASE_URL=http://x", "MNEMO_CHILD=1"}
	if got := childEnv(in); !slices.Equal(got, want) {
		t.Errorf("childEnv(%q) =\n%q, want\n%q", in, got, want)
	}
}
