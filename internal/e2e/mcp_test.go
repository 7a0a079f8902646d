package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// inspectorVersion is the MCP Inspector release the suite pins.
const inspectorVersion = "2.12.0"

// inspectorSession is the session the Inspector's server serves, given to
// it as Claude Code gives its own: CLAUDE_CODE_SESSION_ID.
const inspectorSession = "0b9d4c2e-6f1a-4e3b-9c8d-7a6b5c4d3e2f"

// findInspector returns the MCP Inspector's launcher or skips the test.
func findInspector(t *testing.T) string {
	return findTool(t, tool{"the MCP Inspector", "MNEMO_E2E_INSPECTOR", "inspector", "mcp-inspector", "@modelcontextprotocol/inspector@" + inspectorVersion})
}

// inspector drives 'mnemo mcp' in a project through the Inspector's CLI.
type inspector struct {
	t       *testing.T
	bin     string
	mnemo   string
	project string
	env     []string
}

func newInspector(t *testing.T) *inspector {
	t.Helper()
	in := &inspector{t: t, bin: findInspector(t), mnemo: buildMnemo(t)}
	base := t.TempDir()
	home := filepath.Join(base, "home")
	in.project = filepath.Join(base, "proj")
	for _, d := range []string{home, in.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(k, "MNEMO") && k != "HOME" {
			in.env = append(in.env, kv)
		}
	}
	in.env = append(in.env, "HOME="+home, "MNEMO_HOME="+filepath.Join(home, ".mnemo"))
	in.run(exec.Command("git", "init", "-q"))
	in.run(exec.Command(in.mnemo, "init", "--no-agent"))
	return in
}

func (in *inspector) run(cmd *exec.Cmd) []byte {
	in.t.Helper()
	cmd.Dir, cmd.Env = in.project, in.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		in.t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return out
}

// call runs one Inspector method against a fresh 'mnemo mcp' and decodes
// the JSON it prints into out; it returns the exit code.
func (in *inspector) call(out any, args ...string) int {
	in.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The target (mnemo mcp) comes first; the server gets HOME and
	// MNEMO_HOME with -e, since the Inspector starts it with a minimal
	// environment.
	argv := append([]string{"--cli", in.mnemo, "mcp", "--cwd", in.project,
		"-e", "HOME=" + in.getenv("HOME"), "-e", "MNEMO_HOME=" + in.getenv("MNEMO_HOME"),
		"-e", "CLAUDE_CODE_SESSION_ID=" + inspectorSession,
		"--format", "json"}, args...)
	cmd := exec.CommandContext(ctx, in.bin, argv...)
	cmd.Dir, cmd.Env = in.project, in.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		in.t.Fatalf("inspector %v: %v", args, err)
	}
	if code == 0 {
		if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
			in.t.Fatalf("inspector %v printed %q: %v\nstderr:\n%s", args, stdout.String(), err, stderr.String())
		}
	}
	return code
}

func (in *inspector) getenv(key string) string {
	for _, kv := range slices.Backward(in.env) {
		if k, v, _ := strings.Cut(kv, "="); k == key {
			return v
		}
	}
	return ""
}

// A toolResult is what the Inspector prints for tools/call.
type toolResult struct {
	Result struct {
		Content []struct {
			Type, Text string
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
}

// TestMCPInspector drives 'mnemo mcp' with the real MCP Inspector CLI:
// tools/list, then remember, recall, get and forget, checking the JSON it
// prints, and the exit code of a tool error.
func TestMCPInspector(t *testing.T) {
	t.Parallel()
	in := newInspector(t)
	checkToolsList(t, in)

	// The user says it first: the user-prompt-submit hook keeps the prompt
	// of the session, which grounds what the agent remembers.
	payload, _ := json.Marshal(map[string]string{"session_id": inspectorSession, "cwd": in.project, "hook_event_name": "UserPromptSubmit",
		"prompt": "Remember that the staging database is reset every night at 02:00 UTC: do not keep test data in staging overnight."})
	hook := exec.Command(in.mnemo, "hook", "user-prompt-submit")
	hook.Stdin = bytes.NewReader(payload)
	in.run(hook)

	var remembered toolResult
	in.call(&remembered, "--method", "tools/call", "--tool-name", "remember", "--tool-args-json",
		`{"description":"The staging database is reset every night at 02:00 UTC","content":"Do not keep test data in staging overnight: the nightly reset at 02:00 UTC wipes it.","type":"project"}`)
	var rem struct{ Action, Name, Where string }
	if err := json.Unmarshal(remembered.Result.StructuredContent, &rem); err != nil || rem.Action != "added" || rem.Where != "project" {
		t.Fatalf("remember = %s (%v), want added to the project vault", remembered.Result.StructuredContent, err)
	}
	if len(remembered.Result.Content) == 0 || !strings.Contains(remembered.Result.Content[0].Text, rem.Name) {
		t.Errorf("remember's text = %+v, want it to name %s", remembered.Result.Content, rem.Name)
	}

	var recalled toolResult
	in.call(&recalled, "--method", "tools/call", "--tool-name", "recall", "--tool-arg", "q=staging database reset", "--tool-arg", "k=3")
	var rec struct {
		Memories []struct{ Name, Body string }
	}
	if err := json.Unmarshal(recalled.Result.StructuredContent, &rec); err != nil || len(rec.Memories) == 0 ||
		rec.Memories[0].Name != rem.Name || !strings.Contains(rec.Memories[0].Body, "nightly reset") {
		t.Errorf("recall = %s (%v), want %s with its body first", recalled.Result.StructuredContent, err, rem.Name)
	}

	var got toolResult
	in.call(&got, "--method", "tools/call", "--tool-name", "get", "--tool-arg", "name="+rem.Name)
	var g struct{ Name, Body, Source string }
	if err := json.Unmarshal(got.Result.StructuredContent, &g); err != nil || g.Name != rem.Name || g.Source != "agent" {
		t.Errorf("get = %s (%v), want %s with source agent", got.Result.StructuredContent, err, rem.Name)
	}

	var forgot toolResult
	in.call(&forgot, "--method", "tools/call", "--tool-name", "forget", "--tool-arg", "name="+rem.Name, "--tool-arg", "reason=the reset schedule changed")
	var fg struct {
		Action  string `json:"action"`
		MovedTo string `json:"moved_to"`
	}
	if err := json.Unmarshal(forgot.Result.StructuredContent, &fg); err != nil || fg.Action != "moved_out" {
		t.Errorf("forget = %s (%v), want moved_out", forgot.Result.StructuredContent, err)
	}
	if _, err := os.Stat(filepath.Join(in.project, ".memory", rem.Name+".md")); err == nil {
		t.Errorf("%s is still in the vault after forget", rem.Name)
	}
	if _, err := os.Stat(fg.MovedTo); err != nil {
		t.Errorf("the forgotten copy: %v", err)
	}

	// A tool error is isError, which the Inspector reports with exit code 5.
	var none toolResult
	if code := in.call(&none, "--method", "tools/call", "--tool-name", "get", "--tool-arg", "name="+rem.Name); code != 5 {
		t.Errorf("get of a forgotten memory exited %d, want 5 (tool error)", code)
	}
}

// checkToolsList asks the Inspector for tools/list and checks the names.
func checkToolsList(t *testing.T, in *inspector) {
	t.Helper()
	var list struct {
		Result struct {
			Tools []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				InputSchema struct {
					Properties map[string]json.RawMessage `json:"properties"`
				} `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if code := in.call(&list, "--method", "tools/list"); code != 0 {
		t.Fatalf("tools/list exited %d", code)
	}
	var names []string
	for _, tool := range list.Result.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"forget", "get", "list", "memory", "recall", "remember", "update", "verify"}; !slices.Equal(names, want) {
		t.Errorf("tools/list = %v, want %v", names, want)
	}
}

// TestMCPWithClaudeCode runs a real Claude Code session in a project set
// up by 'mnemo init', whose .mcp.json registers 'mnemo mcp', against a
// scripted model that calls mcp__mnemo__recall and then
// mcp__mnemo__remember: the recalled memory reaches the model's next
// request, and the remembered fact is in the vault afterwards.
func TestMCPWithClaudeCode(t *testing.T) {
	t.Parallel()
	model := fakeapi.New(t,
		fakeapi.Reply{ToolName: "mcp__mnemo__recall", ToolInput: `{"query":"package manager frontend"}`},
		fakeapi.Reply{ToolName: "mcp__mnemo__remember", ToolInput: `{"description":"The frontend's CI caches the pnpm store between runs","fact":"CI restores ~/.pnpm-store keyed on pnpm-lock.yaml (quokka-cache-3); a cold store costs four minutes.","type":"project","why":"Found while fixing a slow build."}`},
		fakeapi.Reply{Text: "Done: I recalled the package manager and remembered the CI cache."},
	)
	s := newSandbox(t, model)
	s.setenv("MNEMO_WORKER=off")
	s.mnemoRun("init")
	var mcpJSON struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	data, err := os.ReadFile(filepath.Join(s.project, ".mcp.json"))
	if err != nil || json.Unmarshal(data, &mcpJSON) != nil || !slices.Equal(mcpJSON.MCPServers["mnemo"].Args, []string{"mcp"}) {
		t.Fatalf("mnemo init wrote .mcp.json = %s (%v), want the mnemo server", data, err)
	}
	s.mnemoRun("add", "--type", "feedback", "-n", "frontend-uses-pnpm", "-d", "The frontend uses pnpm as its package manager, never npm",
		"Run pnpm install in web/; npm breaks the lockfile (zebra-lockfile-7).")

	// The user states the fact the model then remembers: the user-prompt-submit
	// hook keeps the prompt, and the server finds it by the session Claude
	// Code names (CLAUDE_CODE_SESSION_ID), so the fact is a memory at once.
	r := s.claudeP("Set up the frontend build cache. Remember that CI restores ~/.pnpm-store keyed on pnpm-lock.yaml (quokka-cache-3); "+
		"a cold store costs four minutes.", "--allowedTools", "mcp__mnemo__recall,mcp__mnemo__remember")
	if r.NumTurns < 3 || !strings.Contains(r.Result, "Done") {
		t.Errorf("claude -p = %+v, want three turns ending in the scripted answer", r)
	}

	recall, remember := toolResultOf(t, model.Requests(), "mcp__mnemo__recall"), toolResultOf(t, model.Requests(), "mcp__mnemo__remember")
	if !strings.Contains(recall, "zebra-lockfile-7") || !strings.Contains(recall, "frontend-uses-pnpm") {
		t.Errorf("the recall result the model got does not carry the memory:\n%.2000s", recall)
	}
	if !strings.Contains(remember, `"action":"added"`) {
		t.Errorf("the remember result the model got = %.1000s, want added", remember)
	}
	found := ""
	entries, _ := filepath.Glob(filepath.Join(s.project, ".memory", "*.md"))
	for _, e := range entries {
		if data, _ := os.ReadFile(e); strings.Contains(string(data), "quokka-cache-3") {
			found = string(data)
		}
	}
	if !strings.Contains(found, "source: agent") || !strings.Contains(found, "why: Found while fixing a slow build.") {
		t.Errorf("the remembered fact is not in the vault as an agent memory; found:\n%s", found)
	}
	if log := s.stateLog(); strings.Contains(log, "level=ERROR") {
		t.Errorf("mnemo logged an error:\n%s", log)
	}
}

// contentText is a tool_result's content as text: a string, or the text
// of its blocks.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct{ Text string }
	json.Unmarshal(raw, &blocks)
	var b strings.Builder
	for _, bl := range blocks {
		b.WriteString(bl.Text)
	}
	return b.String()
}

// toolResultOf finds, in the model's requests, the tool_result answering
// the call of the named tool, and returns its content as text.
func toolResultOf(t *testing.T, requests []string, tool string) string {
	t.Helper()
	type block struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	}
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	for _, body := range slices.Backward(requests) {
		if json.Unmarshal([]byte(body), &req) != nil {
			continue
		}
		ids := map[string]bool{}
		for _, m := range req.Messages {
			var blocks []block
			if json.Unmarshal(m.Content, &blocks) != nil {
				continue
			}
			for _, b := range blocks {
				switch {
				case b.Type == "tool_use" && b.Name == tool:
					ids[b.ID] = true
				case b.Type == "tool_result" && ids[b.ToolUseID]:
					return contentText(b.Content)
				}
			}
		}
	}
	t.Fatalf("no request carries the result of %s", tool)
	return ""
}
