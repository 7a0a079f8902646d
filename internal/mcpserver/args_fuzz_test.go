package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/mcpserver"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// FuzzToolArguments calls every tool with arbitrary arguments over the
// in-memory transport, on one server: each call is answered (a result,
// or an error result naming what is wrong), the server keeps serving, and
// nothing is written outside the vaults and state folders.
func FuzzToolArguments(f *testing.F) {
	tools := []string{"recall", "remember", "update", "forget", "get", "list", "verify", "memory"}
	for i, args := range []string{
		`{"query":"deploy"}`, `{"query":""}`, `{"query":"\"a\" OR NEAR(b) *"}`, `{"files":["../../etc/passwd"],"limit":-1}`,
		`{"fact":"The staging host is db-staging","type":"project"}`, `{"fact":"x","type":"proj","confidence":7}`,
		`{"name":"../x","fact":"y"}`, `{"name":"deploy","reason":"stale"}`, `{"name":"deploy"}`, `{"cursor":"-1"}`,
		`{"names":["deploy","\u0000"]}`,
		`{"command":"create","path":"/memories/../escape.md","file_text":"x"}`,
		`{"command":"view","path":"/memories/%2e%2e/"}`, `{"command":"str_replace","path":"/memories/deploy.md","old_str":"","new_str":"x"}`,
		`{"command":"rename","old_path":"/memories/deploy.md","new_path":"/memories/a\\b.md"}`,
		`null`, `[]`, `{"query":{"$ne":1}}`, `{"limit":1e308}`, `{"query":"` + "\xff" + `"}`,
	} {
		f.Add(uint8(i), []byte(args))
	}
	base := f.TempDir()
	dirs := map[string]string{}
	for _, d := range []string{"repo", "repo/.memory", "user", "state", "ustate"} {
		dirs[d] = filepath.Join(base, d)
		if err := os.MkdirAll(dirs[d], 0o755); err != nil {
			f.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dirs["repo/.memory"], "deploy.md"),
		[]byte(mem("deploy", "project", "Deploy with make deploy from a clean tree", "Run make deploy.")), 0o644)
	pv, err := vault.Open(dirs["repo/.memory"], vault.LockPath(dirs["state"]))
	if err != nil {
		f.Fatal(err)
	}
	uv, err := vault.Open(dirs["user"], vault.LockPath(dirs["ustate"]))
	if err != nil {
		f.Fatal(err)
	}
	srv := mcpserver.New(mcpserver.Config{Project: pv, User: uv, StateDir: dirs["state"],
		Root: dirs["repo"], Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	f.Cleanup(func() { cancel(); <-done })
	session, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { session.Close() })
	top := func() []string {
		des, _ := os.ReadDir(base)
		var names []string
		for _, de := range des {
			names = append(names, de.Name())
		}
		return names
	}
	before := top()

	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		var arguments any = json.RawMessage(args)
		if !json.Valid(args) {
			arguments = map[string]any{"query": string(args), "fact": string(args), "name": string(args),
				"command": "view", "path": string(args)}
		}
		cctx, ccancel := context.WithTimeout(ctx, within(20*time.Second))
		defer ccancel()
		res, err := session.CallTool(cctx, &mcp.CallToolParams{Name: tool, Arguments: arguments})
		if err != nil {
			if cctx.Err() != nil {
				t.Fatalf("%s(%s): no answer: %v", tool, args, err)
			}
			return // a JSON-RPC error answered, as for arguments that are not an object
		}
		if res == nil || len(res.Content) == 0 {
			t.Fatalf("%s(%s) = %+v: no content", tool, args, res)
		}
		if err := session.Ping(cctx, nil); err != nil {
			t.Fatalf("after %s(%s) the server does not answer: %v", tool, args, err)
		}
		if after := top(); !slices.Equal(after, before) {
			t.Fatalf("%s(%s) wrote outside the vaults and state: %v, was %v", tool, args, after, before)
		}
	})
}
