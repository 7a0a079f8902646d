package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMalformedInputKeepsServing sends the server, over its real stdio,
// every kind of message that used to make it exit, each between two good
// requests: each gets a JSON-RPC error (or, a client's stray answer, is
// ignored), and the requests after it are answered.
func TestMalformedInputKeepsServing(t *testing.T) {
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": pnpmFile})
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	bad := []struct {
		name, line string
		id         string // the id its error carries: null when it has no usable one
		code       int
	}{
		{"not JSON", "this is not json", "null", -32700},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"x\":\"\xff\xfe\"}", "7", -32700},
		{"null", "null", "null", -32600},
		{"a batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, "null", -32600},
		{"an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600},
		{"no version", `{"id":9,"method":"ping"}`, "9", -32600},
		{"a number method", `{"jsonrpc":"2.0","id":10,"method":5}`, "10", -32600},
		{"nested past 10,000 levels", `{"jsonrpc":"2.0","id":11,"method":"ping","params":` + deep + `}`, "null", -32600},
		{"a 20 MB frame", `{"jsonrpc":"2.0","id":12,"method":"ping","params":{"x":"` + strings.Repeat("a", 20<<20) + `"}}`, "null", -32600},
	}
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for _, b := range bad {
		in.WriteString(b.line + "\n")
		in.WriteString(`{"jsonrpc":"2.0","id":"after-` + b.name + `","method":"tools/call","params":{"name":"recall","arguments":{"query":"pnpm"}}}` + "\n")
	}
	ctx, cancel := context.WithTimeout(context.Background(), within(60*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0])
	if bin := os.Getenv(binEnv); bin != "" {
		cmd = exec.CommandContext(ctx, bin, "mcp")
	}
	var out bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = f.root, f.environ(), &in, &out, testLog{t}
	if err := cmd.Run(); err != nil {
		t.Fatalf("the server ended with %v", err)
	}
	answers := map[string]json.RawMessage{} // by id
	var errorsNull []int
	codes := map[string]int{} // the error code answered, by id
	for line := range strings.Lines(out.String()) {
		var m struct {
			ID     json.RawMessage     `json:"id"`
			Result json.RawMessage     `json:"result"`
			Error  *struct{ Code int } `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout holds a line that is not JSON: %.200q", line)
		}
		if string(m.ID) == "null" && m.Error != nil {
			errorsNull = append(errorsNull, m.Error.Code)
			continue
		}
		if m.Error != nil {
			codes[string(m.ID)] = m.Error.Code
		}
		answers[string(m.ID)] = []byte(line)
	}
	for _, b := range bad {
		after := answers[`"after-`+b.name+`"`]
		if !bytes.Contains(after, []byte("use-pnpm")) {
			t.Errorf("after %s: the next request got %.200q, want its recall answer", b.name, after)
		}
	}
	// Each bad message got its error, with its id where it had a usable one.
	var wantNull []int
	for _, b := range bad {
		if b.id == "null" {
			wantNull = append(wantNull, b.code)
		} else if got := codes[b.id]; got != b.code {
			t.Errorf("%s (id %s) answered with error code %d, want %d", b.name, b.id, got, b.code)
		}
	}
	if !slices.Equal(errorsNull, wantNull) {
		t.Errorf("errors with a null id: codes %v, want %v", errorsNull, wantNull)
	}
}
