package extract

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/mnemo-dev/mnemo/internal/childenv"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fence"
)

// DefaultClaudeModel is the model the claude-cli provider asks for.
const DefaultClaudeModel = "haiku"

// claudeArgs isolates the child session (see shared/reference §3): no
// tools, one turn, no hooks (disableAllHooks), no MCP servers
// (--strict-mcp-config without --mcp-config), and no transcript left in
// ~/.claude/projects (--no-session-persistence) for mnemo to ingest.
func claudeArgs(model, system string) []string {
	return []string{
		"-p",
		"--model", model,
		"--output-format", "json",
		"--max-turns", "1",
		"--tools", "",
		"--settings", `{"disableAllHooks":true}`,
		"--strict-mcp-config",
		"--no-session-persistence",
		"--system-prompt", system,
	}
}

// childEnv returns env without the parent session's markers and with
// MNEMO_CHILD=1, which makes every mnemo hook in the child exit at once.
func childEnv(env []string) []string {
	return append(childenv.Scrub(env), "MNEMO_CHILD=1")
}

// claudePath finds the claude binary.
func claudePath(cfg Config) (string, error) {
	bin := cfg.ClaudeBinary
	if bin == "" {
		bin = "claude"
	}
	if strings.ContainsRune(bin, os.PathSeparator) {
		if fi, err := os.Stat(bin); err != nil || fi.IsDir() {
			return "", fmt.Errorf("no claude binary at %s", bin)
		}
		return bin, nil
	}
	return cfg.LookPath(bin)
}

// claudeBackend runs `claude -p` headless, the prompt on stdin, in an
// empty temporary folder so that no project's CLAUDE.md, settings or
// .mcp.json load.
type claudeBackend struct {
	bin   string
	model string
	cfg   Config
}

func newClaudeCLI(cfg Config) (Extractor, error) {
	bin, err := claudePath(cfg)
	if err != nil {
		return nil, fmt.Errorf("extract: claude-cli: %v: %w", err, ErrUnavailable)
	}
	model := cfg.Model
	if model == "" {
		model = DefaultClaudeModel
	}
	return &llm{name: ProviderClaudeCLI, be: &claudeBackend{bin: bin, model: model, cfg: cfg}, cfg: cfg}, nil
}

// claudeResult is what `claude -p --output-format json` prints.
type claudeResult struct {
	Type           string   `json:"type"`
	Subtype        string   `json:"subtype"`
	IsError        bool     `json:"is_error"`
	Result         string   `json:"result"`
	StopReason     string   `json:"stop_reason"`
	Errors         []string `json:"errors"`
	APIErrorStatus int      `json:"api_error_status"`
	Usage          struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

func (b *claudeBackend) complete(ctx context.Context, req request) (reply, error) {
	ctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "mnemo-extract-")
	if err != nil {
		return reply{Usage: Usage{Calls: 1}}, fmt.Errorf("make a folder for claude: %w", err)
	}
	defer os.RemoveAll(dir)

	cmd := exec.CommandContext(ctx, b.bin, claudeArgs(b.model, req.System)...)
	cmd.Dir = dir
	cmd.Env = childEnv(b.cfg.Environ())
	cmd.Stdin = strings.NewReader(flatten(req.Messages))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) } // claude still tidies up
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()

	rep := reply{Usage: Usage{Calls: 1}}
	if ctx.Err() != nil {
		return rep, fmt.Errorf("run claude: %w", ctx.Err())
	}
	var res claudeResult
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &res); err != nil || res.Type != "result" {
		if runErr != nil {
			return rep, fmt.Errorf("run %s: %w: %s", b.bin, runErr, excerpt(stderr.String()+" "+stdout.String(), 300))
		}
		return rep, fmt.Errorf("run %s: no JSON result on stdout: %s", b.bin, excerpt(stdout.String(), 300))
	}
	u := res.Usage
	rep.Usage.InputTokens = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
	rep.Usage.OutputTokens = u.OutputTokens
	if res.IsError || res.Subtype != "success" || runErr != nil {
		msg := res.Result
		if msg == "" {
			msg = strings.Join(res.Errors, "; ")
		}
		err := fmt.Errorf("claude reported %s: %s", res.Subtype, excerpt(msg, 300))
		if res.APIErrorStatus != 0 {
			err = &APIError{Provider: ProviderClaudeCLI, Status: res.APIErrorStatus, Err: err}
		}
		return rep, err
	}
	rep.Text = res.Result
	switch res.StopReason {
	case "refusal":
		rep.Stop = stopRefusal
	case "max_tokens":
		rep.Stop = stopMaxTokens
	}
	return rep, nil
}

// replyFence fences the model's own reply quoted back in a repair request.
var replyFence = fence.New("previous_reply")

// flatten writes a conversation as one prompt: `claude -p` without a
// saved session has no earlier turns to resume, so a repair request
// carries the first reply inside the prompt.
func flatten(msgs []message) string {
	if len(msgs) == 1 {
		return msgs[0].Text
	}
	var b strings.Builder
	b.WriteString(msgs[0].Text)
	for _, m := range msgs[1:] {
		if m.Role == "assistant" {
			b.WriteString("\n\nYour previous reply was:\n" + replyFence.Open() + "\n" + replyFence.Escape(m.Text) + "\n" + replyFence.Close())
		} else {
			b.WriteString("\n\n" + m.Text)
		}
	}
	return b.String()
}
