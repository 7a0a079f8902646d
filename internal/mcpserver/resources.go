package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// Resource URIs.
const (
	indexURI     = "memory://index"
	memoryURITpl = "memory://{name}"
)

// addResources registers memory://index, the project vault's MEMORY.md,
// and the template memory://{name} for any memory file. Memories are not
// listed one by one: a vault of thousands would swamp resources/list.
func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{
		URI: indexURI, Name: "index", Title: "Memory index (MEMORY.md)", MIMEType: "text/markdown",
		Description: "The project vault's MEMORY.md: one line per active memory, grouped by type.",
	}, s.readIndex)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: memoryURITpl, Name: "memory", Title: "A memory file", MIMEType: "text/markdown",
		Description: "One memory file, header and body, by name (project vault first, then the user vault).",
	}, s.readMemory)
}

func (s *Server) readIndex(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	data, err := s.cfg.Project.ReadFile(vault.IndexFile)
	if err != nil {
		return nil, err
	}
	return markdown(req.Params.URI, string(data)), nil
}

func (s *Server) readMemory(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	name, ok := strings.CutPrefix(uri, "memory://")
	if !ok || !memory.ValidName(name) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	for _, v := range []*vault.Vault{s.cfg.Project, s.cfg.User} {
		data, err := v.ReadFile(name + ".md")
		if errors.Is(err, vault.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		m, err := memory.Parse(name+".md", data)
		if err != nil {
			return nil, err
		}
		if err := refuseInvalid(name, m); err != nil {
			return nil, err
		}
		return markdown(uri, string(data)), nil
	}
	return nil, mcp.ResourceNotFoundError(uri)
}

func markdown(uri, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: shown(text)}}}
}
