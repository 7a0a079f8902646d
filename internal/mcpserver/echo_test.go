package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHugeArgumentsNotEchoed calls every tool with each of its string
// arguments a megabyte long: whatever the answer (refused, nothing found,
// done), it stays small. An answer that repeats its input whole puts the
// megabyte into the agent's context.
func TestHugeArgumentsNotEchoed(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/deploy.md": mem("deploy", "project", "Deploys go through make deploy", "Run make deploy from a clean tree."),
	})
	tools, err := f.session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("zqx ", 1<<18) // 1 MiB
	const most = 64 << 10
	for _, tool := range tools.Tools {
		var schema struct {
			Properties map[string]struct {
				Type any   `json:"type"`
				Enum []any `json:"enum"`
			} `json:"properties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		for name, p := range schema.Properties {
			if p.Type != "string" {
				continue
			}
			t.Run(tool.Name+"/"+name, func(t *testing.T) {
				args := map[string]any{}
				for other, q := range schema.Properties { // the others valid
					switch {
					case len(q.Enum) > 0:
						args[other] = q.Enum[0]
					case q.Type == "string" && other != "cursor":
						args[other] = "deploy"
					}
				}
				args[name] = huge
				ctx, cancel := context.WithTimeout(context.Background(), within(30*time.Second))
				defer cancel()
				res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: args})
				if err != nil {
					if n := len(err.Error()); n > most {
						t.Errorf("the error is %d bytes long", n)
					}
					return
				}
				data, _ := json.Marshal(res)
				if len(data) > most {
					t.Errorf("the answer is %d bytes long: %.300s…", len(data), data)
				}
			})
		}
	}
}
