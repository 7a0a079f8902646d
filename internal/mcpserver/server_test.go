package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/gittest"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/mcpserver"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/race"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// serveEnv, when set, makes the test binary the server: every test talks
// to a real subprocess over stdio, as Claude Code does.
const serveEnv = "MNEMO_MCPSERVER_TEST_SERVE"

// binEnv names a built mnemo binary to run as 'mnemo mcp' instead of the
// test binary, to test (and benchmark) the real command.
const binEnv = "MNEMO_MCPSERVER_BIN"

// semanticEnv, when set, makes the test server recall by meaning too, as
// 'mnemo mcp' does.
const semanticEnv = "MNEMO_MCPSERVER_TEST_SEMANTIC"

// now is the clock of every server the tests start.
var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) != "" {
		if path := os.Getenv("MNEMO_MCPSERVER_CPUPROFILE"); path != "" { // the server's profile, for the benchmark
			if pf, err := os.Create(path); err == nil {
				pprof.StartCPUProfile(pf)
				defer pprof.StopCPUProfile()
			}
		}
		if path := os.Getenv("MNEMO_MCPSERVER_TRACE"); path != "" { // the server's execution trace, for the benchmark
			if tf, err := os.Create(path); err == nil {
				trace.Start(tf)
				defer trace.Stop()
			}
		}
		if err := serve(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StopCPUProfile()
		trace.Stop()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serve runs the server on stdio for the project around the working
// folder, wired as 'mnemo mcp' wires it.
func serve() error {
	debug.SetGCPercent(mcpserver.GCPercent)
	ctx := context.Background()
	env := project.Env{Getenv: os.Getenv, Home: os.Getenv("HOME")}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	p, err := project.Find(ctx, wd, env)
	if err != nil {
		return err
	}
	pv, err := vault.Open(p.VaultDir(), filepath.Join(p.StateDir(), "vault.lock"))
	if err != nil {
		return err
	}
	if _, err := vault.Create(env.UserVaultDir()); err != nil {
		return err
	}
	uv, err := vault.Open(env.UserVaultDir(), filepath.Join(env.UserStateDir(), "vault.lock"))
	if err != nil {
		return err
	}
	idle, _ := time.ParseDuration(os.Getenv("MNEMO_MCPSERVER_TEST_IDLE"))
	var semantic recall.QueryEmbedder
	if os.Getenv(semanticEnv) != "" {
		semantic = embed.NewLazyResident()
	}
	s := mcpserver.New(mcpserver.Config{
		Project: pv, User: uv, StateDir: p.StateDir(),
		Root: p.Root, InGit: p.InGit(), Head: p.Head, Now: func() time.Time { return now },
		IdleRelease: idle, Log: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})),
		Session: os.Getenv("CLAUDE_CODE_SESSION_ID"), Semantic: semantic,
	})
	in, restore := mcpserver.Pollable(os.Stdin)
	defer restore()
	return s.Run(ctx, mcpserver.Stdio(in, os.Stdout))
}

// A fixture is a git project with a vault, a home folder, and a client
// connected to a server subprocess working on them.
type fixture struct {
	t       testing.TB
	extra   []string // more environment for the server
	root    string   // the project
	home    string
	state   string // the project's state folder
	cmd     *exec.Cmd
	session *mcp.ClientSession
	outputs map[string]*jsonschema.Resolved // each tool's output schema, for checking answers
}

// syncedIndex opens the project's index.db beside the server's and
// syncs the project vault into it, for a test to give it vectors; it is
// closed with the test.
func (f *fixture) syncedIndex(ctx context.Context) *index.DB {
	f.t.Helper()
	db, err := index.Open(ctx, filepath.Join(f.state, index.FileName), nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	if _, err := db.Sync(ctx, index.Source{Name: "project", Dir: filepath.Join(f.root, ".memory")}); err != nil {
		f.t.Fatal(err)
	}
	return db
}

// newFixture writes files (relative to the project; .memory/x.md for
// memories), commits the vault and starts a server on the project.
func newFixture(t testing.TB, files map[string]string, environ ...string) *fixture {
	t.Helper()
	base := t.TempDir()
	f := &fixture{t: t, root: filepath.Join(base, "proj"), home: filepath.Join(base, "home"), extra: environ}
	for _, d := range []string{f.root, f.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f.git("init", "-q")
	if _, err := vault.Create(filepath.Join(f.root, project.VaultFolder)); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		f.write(name, text)
	}
	// the fixture's memories are a teammate's, pulled through git, so
	// that git vouches for their source on the first read (a test's later
	// writes are the agent's, and are not)
	gittest.FromTeammate(t, f.root, project.VaultFolder)
	p, err := project.Find(context.Background(), f.root, f.env())
	if err != nil {
		t.Fatal(err)
	}
	f.state = p.StateDir()
	f.reindex()
	f.connect()
	return f
}

func (f *fixture) env() project.Env {
	return project.Env{Getenv: func(k string) string {
		if k == "MNEMO_HOME" {
			return filepath.Join(f.home, ".mnemo")
		}
		return ""
	}, Home: f.home}
}

// environ is the server's environment.
func (f *fixture) environ() []string {
	env := append(os.Environ(), serveEnv+"=1", "HOME="+f.home, "MNEMO_HOME="+filepath.Join(f.home, ".mnemo"),
		"MNEMO_NOW="+now.Format(time.RFC3339),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t",
		"GIT_CONFIG_GLOBAL="+filepath.Join(f.home, ".gitconfig"))
	return append(env, f.extra...)
}

func (f *fixture) connect() {
	f.t.Helper()
	f.cmd = exec.Command(os.Args[0])
	if bin := os.Getenv(binEnv); bin != "" {
		f.cmd = exec.Command(bin, "mcp")
	}
	f.cmd.Dir, f.cmd.Env = f.root, f.environ()
	f.cmd.Stderr = testLog{f.t}
	client := mcp.NewClient(&mcp.Implementation{Name: "mnemo-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), within(30*time.Second))
	defer cancel()
	s, err := client.Connect(ctx, &mcp.CommandTransport{Command: f.cmd}, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.session = s
	f.t.Cleanup(func() { s.Close() })
}

// testLog sends the server's stderr to the test log.
type testLog struct{ t testing.TB }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Logf("server: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func (f *fixture) git(args ...string) {
	f.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = f.root, f.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (f *fixture) path(name string) string { return filepath.Join(f.root, filepath.FromSlash(name)) }

func (f *fixture) write(name, text string) {
	f.t.Helper()
	p := f.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(name string) string {
	f.t.Helper()
	data, err := os.ReadFile(f.path(name))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(data)
}

func (f *fixture) exists(name string) bool {
	_, err := os.Lstat(f.path(name))
	return err == nil
}

// vault opens the project vault as another process (the CLI, a hook) would.
func (f *fixture) vault() *vault.Vault {
	f.t.Helper()
	v, err := vault.Open(f.path(".memory"), filepath.Join(f.state, "vault.lock"))
	if err != nil {
		f.t.Fatal(err)
	}
	return v
}

func (f *fixture) reindex() {
	f.t.Helper()
	if err := f.vault().Reindex(context.Background()); err != nil {
		f.t.Fatal(err)
	}
}

// load parses a memory of the project vault.
func (f *fixture) load(name string) *memory.Memory {
	f.t.Helper()
	m, err := f.vault().Load(name)
	if err != nil {
		f.t.Fatal(err)
	}
	return m
}

// within returns how long a test waits for the server to answer what
// takes d without the race detector: six times d under it, which made a
// remember of 300 KB 13 times slower (0.5 against 6.6 s, quiet) and, with
// the other tests of a CI run beside it, slower than 20 s. A wait that
// long still tells a hang.
func within(d time.Duration) time.Duration {
	if race.Enabled {
		return 6 * d
	}
	return d
}

// call calls a tool and returns its result, failing on a protocol error.
func (f *fixture) call(tool string, args any) *mcp.CallToolResult {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within(30*time.Second))
	defer cancel()
	res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		f.t.Fatalf("%s(%v): %v", tool, args, err)
	}
	return res
}

// ok calls a tool that must succeed, decodes its structuredContent into
// out (when not nil) and returns its text.
func (f *fixture) ok(tool string, args any, out any) string {
	f.t.Helper()
	res := f.call(tool, args)
	text := textOf(res)
	if res.IsError {
		f.t.Fatalf("%s(%v) failed: %s", tool, args, text)
	}
	f.conforms(tool, res)
	if out != nil {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			f.t.Fatal(err)
		}
		if err := json.Unmarshal(data, out); err != nil {
			f.t.Fatalf("%s(%v) structuredContent %s: %v", tool, args, data, err)
		}
	}
	return text
}

// conforms checks a tool's structuredContent against the output schema it
// declares: the server does not validate its own answers on each call.
func (f *fixture) conforms(tool string, res *mcp.CallToolResult) {
	f.t.Helper()
	if f.outputs == nil {
		f.outputs = map[string]*jsonschema.Resolved{}
		tools, err := f.session.ListTools(context.Background(), nil)
		if err != nil {
			f.t.Fatal(err)
		}
		for _, t := range tools.Tools {
			if t.OutputSchema == nil {
				continue
			}
			data, _ := json.Marshal(t.OutputSchema)
			var s jsonschema.Schema
			if err := json.Unmarshal(data, &s); err != nil {
				f.t.Fatal(err)
			}
			if f.outputs[t.Name], err = s.Resolve(nil); err != nil {
				f.t.Fatal(err)
			}
		}
	}
	rs := f.outputs[tool]
	if rs == nil {
		return
	}
	data, _ := json.Marshal(res.StructuredContent)
	var v any
	json.Unmarshal(data, &v)
	if err := rs.Validate(&v); err != nil {
		f.t.Errorf("%s answered %s, which breaks its output schema: %v", tool, data, err)
	}
}

// fail calls a tool that must fail and returns its error text.
func (f *fixture) fail(tool string, args any) string {
	f.t.Helper()
	res := f.call(tool, args)
	if !res.IsError {
		f.t.Fatalf("%s(%v) = %q, want an error", tool, args, textOf(res))
	}
	return textOf(res)
}

func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// mem renders a memory file with the given header fields and body.
func mem(name, typ, desc, body string, extra ...string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\ntype: " + typ +
		"\ncreated: 2026-11-01T09:00:00Z\nupdated: 2026-11-01T09:00:00Z\nsource: manual\n" + strings.Join(extra, "") + "---\n" + body + "\n"
}
