package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/hook"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

// claudeVersion is the Claude Code release the suite pins.
const claudeVersion = "2.1.332"

// hookDeadlines gives every hook the suite runs ten times its deadline
// ([hook.DeadlineScaleVar]): the tests check what hooks give and that
// nothing blocks them, not the machine's speed (CI runs them beside other
// packages' tests, at load 15 and more).
const hookDeadlines = hook.DeadlineScaleVar + "=10"

// findClaude returns the claude binary or skips the test, saying why.
func findClaude(t *testing.T) string {
	return findTool(t, tool{"the Claude Code CLI", "MNEMO_E2E_CLAUDE", "claude", "claude", "@anthropic-ai/claude-code@" + claudeVersion})
}

var (
	buildOnce sync.Once
	binDir    string // holds mnemoBin; TestMain removes it
	mnemoBin  string
	buildErr  error
)

// TestMain runs the suite, then removes the binary buildMnemo built (34 MB
// left in the temporary folder by every run until then).
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// buildMnemo builds the mnemo binary once for the whole suite.
func buildMnemo(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "mnemo-e2e-bin")
		if err != nil {
			buildErr = err
			return
		}
		binDir = dir
		mnemoBin = filepath.Join(dir, "mnemo")
		out, err := exec.Command("go", "build", "-o", mnemoBin, "../../cmd/mnemo").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return mnemoBin
}

// sandbox is a home folder, a git project and the environment a session
// runs in, pointed at a fake model.
type sandbox struct {
	t       *testing.T
	home    string
	project string
	env     []string
	mnemo   string
	claude  string
	model   *fakeapi.Model
}

func newSandbox(t *testing.T, model *fakeapi.Model) *sandbox {
	t.Helper()
	claude := findClaude(t)
	s := newBareSandbox(t, model)
	s.claude = claude
	return s
}

// newBareSandbox is a sandbox without a client chosen.
func newBareSandbox(t *testing.T, model *fakeapi.Model) *sandbox {
	t.Helper()
	s := &sandbox{t: t, mnemo: buildMnemo(t), model: model}
	base := t.TempDir()
	email := "t" + filepath.Base(base) + "@t" // TempDir's folders are numbered
	s.home = filepath.Join(base, "home")
	s.project = filepath.Join(base, "proj")
	t.Cleanup(func() { waitWorkers(t, filepath.Join(s.home, ".mnemo", "state")) }) // before TempDir's own cleanup
	os.MkdirAll(s.home, 0o755)
	os.MkdirAll(s.project, 0o755)
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "CLAUDE") || strings.HasPrefix(k, "ANTHROPIC") || strings.HasPrefix(k, "MNEMO") ||
			strings.HasPrefix(k, "CODEX") || strings.HasPrefix(k, "OPENAI") || strings.HasPrefix(k, "GEMINI") ||
			strings.HasPrefix(k, "GOOGLE") || k == "HOME" {
			continue
		}
		if k == "PATH" { // the project's committed hooks run mnemo from PATH: this build
			kv = "PATH=" + filepath.Dir(s.mnemo) + string(os.PathListSeparator) + v
		}
		s.env = append(s.env, kv)
	}
	s.env = append(s.env,
		"HOME="+s.home,
		"MNEMO_HOME="+filepath.Join(s.home, ".mnemo"),
		"ANTHROPIC_API_KEY=sk-ant-test",
		"ANTHROPIC_BASE_URL="+model.URL(),
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"MNEMO_WORKER_IDLE=2s", // the workers the hooks start end soon after the test, not a minute later
		hookDeadlines,
		// Each sandbox is a person of their own, to git too: a commit of
		// this same person fetched from another clone is no teammate's
		// review (package vault), and two sandboxes are two people.
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL="+email, "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL="+email,
	)
	s.run("git", "init", "-q")
	return s
}

func (s *sandbox) setenv(kv string) { s.env = append(s.env, kv) }

// run runs a command in the project and returns its stdout.
func (s *sandbox) run(name string, args ...string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = s.project, s.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		s.t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func (s *sandbox) mnemoRun(args ...string) string { return s.run(s.mnemo, args...) }

// result is what claude -p --output-format json prints.
type result struct {
	SessionID string `json:"session_id"`
	Result    string `json:"result"`
	IsError   bool   `json:"is_error"`
	NumTurns  int    `json:"num_turns"`
}

// claudeP runs one headless session (or resumes one) and returns its result.
func (s *sandbox) claudeP(prompt string, extra ...string) result {
	s.t.Helper()
	args := append([]string{"-p", prompt, "--output-format", "json"}, extra...)
	if dir := os.Getenv("MNEMO_E2E_DEBUG"); dir != "" { // Claude Code's own debug log, for a failing run
		args = append(args, "--debug-file", filepath.Join(dir, fmt.Sprintf("claude-%d.log", time.Now().UnixNano())))
	}
	out := s.run(s.claude, args...)
	var r result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		s.t.Fatalf("claude printed %q: %v", out, err)
	}
	if r.IsError {
		s.t.Fatalf("claude reported an error: %+v", r)
	}
	return r
}

// stateLog returns the project's mnemo state log.
func (s *sandbox) stateLog() string {
	matches, _ := filepath.Glob(filepath.Join(s.home, ".mnemo", "state", "*", "log"))
	var b strings.Builder
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		b.Write(data)
	}
	return b.String()
}

// waitWorkers waits, a while at most, until no worker has held a state
// folder under dir for half a second: the workers the hooks start run past
// the session (one may be starting just now), and one still writing would
// race the removal of the test's folders.
func waitWorkers(t *testing.T, dir string) {
	deadline := time.Now().Add(30 * time.Second)
	for quiet := 0; quiet < 5; {
		if time.Now().After(deadline) {
			t.Logf("a worker still holds a state folder under %s after 30 s", dir)
			return
		}
		states, _ := filepath.Glob(filepath.Join(dir, "*"))
		busy := false
		for _, st := range states {
			busy = busy || queue.WorkerRunning(st)
		}
		if busy {
			quiet = 0
		} else {
			quiet++
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A tool is a client the suite drives, as .ci/run installs it: from npm
// into a folder of the e2e cache, or where an environment variable says.
type tool struct {
	what, env, dir, bin, pkg string // pkg: name@version
}

// findTool returns the tool's binary or skips the test, saying why.
func findTool(t *testing.T, c tool) string {
	t.Helper()
	if p := os.Getenv(c.env); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "mnemo-e2e", c.dir, "node_modules", ".bin", c.bin)
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not installed (%s; .ci/run installs %s there, or set %s)", c.what, p, c.pkg, c.env)
	}
	return p
}
