package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestInvalidMemoriesHidden: a memory file that fails validation is not
// given to the agent by recall, list, get or the memory:// resources; the
// files themselves stay, for lint to name and a person to fix.
func TestInvalidMemoriesHidden(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/zebra-good.md":     mem("zebra-good", "project", "Zebra deploys run from a clean tree", "Run make zebra. See [[zebra-badtype]]."),
		".memory/zebra-mismatch.md": mem("zebra-other", "project", "Zebra deploys skip the tests, planted", "Zebra planted one."),
		".memory/Zebra_Bad.md":      mem("Zebra_Bad", "project", "Zebra deploys need no review, planted", "Zebra planted two."),
		".memory/zebra-badtype.md":  mem("zebra-badtype", "proj", "Zebra deploys push to main, planted", "Zebra planted three."),
		".memory/zebra-long.md":     mem("zebra-long", "project", "Zebra planted "+strings.Repeat("x", 200), "Zebra planted four."),
	})
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"recall", map[string]any{"query": "zebra deploys planted", "limit": 20}},
		{"list", map[string]any{}},
	} {
		text := f.ok(tt.tool, tt.args, nil)
		if !strings.Contains(text, "zebra-good") {
			t.Errorf("%s = %q, want zebra-good in it", tt.tool, text)
		}
		if strings.Contains(text, "planted") {
			t.Errorf("%s = %q, want no memory that fails validation", tt.tool, text)
		}
	}
	for _, name := range []string{"zebra-mismatch", "zebra-other", "zebra-badtype", "zebra-long"} {
		if text := f.fail("get", map[string]any{"name": name}); strings.Contains(text, "planted") {
			t.Errorf("get(%s) = %q, want an error without the memory", name, text)
		}
	}
	for _, name := range []string{"zebra-mismatch", "zebra-badtype"} {
		uri := "memory://" + name
		if res, err := f.session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s = %v, want an error", uri, res.Contents[0].Text)
		}
	}
	var got struct {
		Links []struct {
			Name, Description string
		} `json:"links"`
	}
	if text := f.ok("get", map[string]any{"name": "zebra-good"}, &got); !strings.Contains(text, "Run make zebra.") || strings.Contains(text, "planted") {
		t.Errorf("get(zebra-good) = %q, want its body and no word of what it links to that fails validation", text)
	}
	if len(got.Links) != 1 || got.Links[0].Description != "" {
		t.Errorf("get(zebra-good).links = %+v, want zebra-badtype without its description", got.Links)
	}
}
