package mcpserver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResources(t *testing.T) {
	reviewed := strings.Replace(pnpmFile, "type: project\n", "type: project\nsource: manual\n", 1)
	f := newFixture(t, map[string]string{".memory/use-pnpm.md": reviewed})
	ctx := context.Background()
	list, err := f.session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) != 1 || list.Resources[0].URI != "memory://index" {
		t.Errorf("resources/list = %+v, want memory://index alone", list.Resources)
	}
	tpls, err := f.session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpls.ResourceTemplates) != 1 || tpls.ResourceTemplates[0].URITemplate != "memory://{name}" {
		t.Errorf("resources/templates/list = %+v, want memory://{name}", tpls.ResourceTemplates)
	}
	tests := []struct{ uri, want string }{
		{"memory://index", "[use-pnpm](use-pnpm.md) — The frontend uses pnpm"},
		{"memory://use-pnpm", reviewed},
	}
	for _, tt := range tests {
		res, err := f.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatalf("read %s: %v", tt.uri, err)
		}
		if c := res.Contents[0]; c.MIMEType != "text/markdown" || !strings.Contains(c.Text, tt.want) {
			t.Errorf("read %s = %+v, want markdown holding %q", tt.uri, c, tt.want)
		}
	}
	for _, uri := range []string{"memory://nope", "memory://../secret", "memory://Use-Pnpm"} {
		if _, err := f.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s succeeded, want not found", uri)
		}
	}
}
