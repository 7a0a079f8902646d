package mcpserver_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/mcpserver"
)

// TestHandshake checks what Claude Code sees on connecting: the server's
// name, its instructions within 2 KB, its capabilities.
func TestHandshake(t *testing.T) {
	f := newFixture(t, nil)
	init := f.session.InitializeResult()
	if init.ServerInfo.Name != mcpserver.Name {
		t.Errorf("server name = %q, want %q", init.ServerInfo.Name, mcpserver.Name)
	}
	if n := len(init.Instructions); n == 0 || n > mcpserver.MaxTextBytes {
		t.Errorf("instructions are %d bytes, want 1 to %d", n, mcpserver.MaxTextBytes)
	}
	for _, want := range []string{"recall", "remember", "dated claim"} {
		if !strings.Contains(init.Instructions, want) {
			t.Errorf("instructions do not mention %q", want)
		}
	}
	if init.Capabilities.Tools == nil || init.Capabilities.Resources == nil {
		t.Errorf("capabilities = %+v, want tools and resources", init.Capabilities)
	}
}

// TestToolsList checks each tool as tools/list shows it: a description
// within 2 KB, its annotations, an input schema naming the aliases models
// use, and an output schema (except the memory tool, which answers text).
func TestToolsList(t *testing.T) {
	f := newFixture(t, nil)
	res, err := f.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	tests := []struct {
		name                              string
		readOnly, destructive, idempotent bool
		aliases                           []string
	}{
		{"recall", true, false, true, []string{"query", "q", "text", "limit", "k", "top_k", "files", "types", "min_confidence", "budget_tokens", "cursor"}},
		{"remember", false, false, false, []string{"description", "fact", "content", "body", "type", "name", "files", "why", "confidence", "force"}},
		{"update", false, true, true, []string{"name", "fact", "content", "body"}},
		{"forget", false, true, true, []string{"name", "reason", "superseded_by"}},
		{"get", true, false, true, []string{"name"}},
		{"list", true, false, true, []string{"type", "status", "cursor"}},
		{"verify", true, false, true, []string{"name"}},
		{"memory", false, true, false, []string{"command", "path", "view_range", "file_text", "old_str", "new_str", "insert_line", "insert_text", "old_path", "new_path"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := tools[tt.name]
			if tool == nil {
				t.Fatalf("tools/list has no %s", tt.name)
			}
			if n := len(tool.Description); n == 0 || n > mcpserver.MaxTextBytes {
				t.Errorf("description is %d bytes, want 1 to %d", n, mcpserver.MaxTextBytes)
			}
			a := tool.Annotations
			if a == nil {
				t.Fatal("no annotations")
			}
			destructive := a.DestructiveHint == nil || *a.DestructiveHint
			if a.ReadOnlyHint != tt.readOnly || (!tt.readOnly && destructive != tt.destructive) || a.IdempotentHint != tt.idempotent {
				t.Errorf("annotations = read-only %v, destructive %v, idempotent %v; want %v, %v, %v",
					a.ReadOnlyHint, destructive, a.IdempotentHint, tt.readOnly, tt.destructive, tt.idempotent)
			}
			if a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("openWorldHint = %v, want false", a.OpenWorldHint)
			}
			props := schemaProps(t, tool.InputSchema)
			for _, p := range tt.aliases {
				if !slices.Contains(props, p) {
					t.Errorf("input schema lacks %q; has %v", p, props)
				}
			}
			if (tool.OutputSchema == nil) != (tt.name == "memory") {
				t.Errorf("output schema = %v; want one for every tool but memory", tool.OutputSchema)
			}
		})
	}
	if len(tools) != len(tests) {
		t.Errorf("tools/list has %d tools, want %d", len(tools), len(tests))
	}
}

func schemaProps(t *testing.T, schema any) []string {
	t.Helper()
	data, _ := json.Marshal(schema)
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range s.Properties {
		out = append(out, k)
	}
	return out
}

// TestRememberNamesThePolicy: the bar remember's description and its
// confidence parameter tell the model is the approval policy's, so the two
// cannot drift apart.
func TestRememberNamesThePolicy(t *testing.T) {
	f := newFixture(t, nil)
	res, err := f.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var remember *mcp.Tool
	for _, tool := range res.Tools {
		if tool.Name == "remember" {
			remember = tool
		}
	}
	if remember == nil {
		t.Fatal("tools/list has no remember")
	}
	data, _ := json.Marshal(remember.InputSchema)
	var s struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ what, text string }{
		{"the confidence parameter", s.Properties["confidence"].Description},
		{"the tool description", remember.Description},
	} {
		m := belowBar.FindStringSubmatch(tt.text)
		if m == nil {
			t.Errorf("%s names no bar: %q", tt.what, tt.text)
			continue
		}
		if got, _ := strconv.ParseFloat(m[1], 64); got != approval.StatedAt {
			t.Errorf("%s says below %s, want the policy's bar %v", tt.what, m[1], approval.StatedAt)
		}
	}
}

// belowBar finds the bar in "below 0.85" or "below confidence 0.85".
var belowBar = regexp.MustCompile(`below (?:confidence )?([0-9]+(?:\.[0-9]+)?)`)
