package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/plural"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// Bounds of a list page.
const (
	listLimit    = 50
	listMaxLimit = 200
)

type listInput struct {
	Type   string `json:"type,omitempty" jsonschema:"only memories of this type"`
	Status string `json:"status,omitempty" jsonschema:"only active or only superseded memories (default: both)"`
	Vault  string `json:"vault,omitempty" jsonschema:"only the project vault or only the user vault (default: both)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many memories per page (default 50)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of the previous page"`
}

type listed struct {
	Name        string `json:"name"`
	Vault       string `json:"vault"`
	Type        string `json:"type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	Updated     string `json:"updated,omitempty"`
	Review      string `json:"review,omitempty"` // as recall's: set on a memory no one reviewed
}

type listOutput struct {
	Memories   []listed `json:"memories"`
	Total      int      `json:"total"` // matching the filters, over all pages
	NextCursor string   `json:"next_cursor,omitempty"`
}

const listDescription = `List the memories by name with their one-line descriptions, type and status, sorted by vault (project, then user) and name; filter by type, status or vault. Pages of 50 (limit); next_cursor gives the next page. To find memories about a topic, recall is faster; list shows what there is.`

func (s *Server) addList() {
	addTool(s.mcp, &mcp.Tool{
		Name:        "list",
		Description: listDescription,
		Annotations: readOnly("List memories"),
		InputSchema: schemaFor[listInput](func(sc *jsonschema.Schema) {
			enum(sc, "type", typeNames...)
			enum(sc, "status", "active", "superseded")
			enum(sc, "vault", "project", "user")
			bounds(sc, "limit", 1, listMaxLimit)
		}),
		OutputSchema: schemaFor[listOutput](nil),
	}, s.list)
}

func (s *Server) list(_ context.Context, _ *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listOutput, error) {
	out := listOutput{Memories: []listed{}}
	if in.Type != "" && !memory.Type(in.Type).Valid() {
		return nil, out, fmt.Errorf("type %q is not one of user, feedback, project, reference", in.Type)
	}
	if in.Status != "" && in.Status != string(memory.StatusActive) && in.Status != string(memory.StatusSuperseded) {
		return nil, out, fmt.Errorf("status %q is not one of active, superseded", in.Status)
	}
	if in.Vault != "" && in.Vault != "project" && in.Vault != "user" {
		return nil, out, fmt.Errorf("vault %q is not one of project, user", in.Vault)
	}
	start, err := offset(in.Cursor)
	if err != nil {
		return nil, out, err
	}
	limit := min(max(in.Limit, 0), listMaxLimit)
	if limit == 0 {
		limit = listLimit
	}
	var all []listed
	for _, where := range []string{"project", "user"} {
		if in.Vault == "" || in.Vault == where {
			all = append(all, s.listVault(where, s.vaultOf(where), in)...)
		}
	}
	out.Total = len(all)
	size := 0
	for i := min(start, len(all)); i < len(all) && len(out.Memories) < limit; i++ {
		size += len(all[i].Name) + len(all[i].Description) + 120
		if size > maxResultChars/2 && len(out.Memories) > 0 {
			break
		}
		m := all[i]
		m.Description = shown(m.Description) // the page's only: redacting every entry of a large vault costs
		out.Memories = append(out.Memories, m)
	}
	if next := start + len(out.Memories); next < len(all) {
		out.NextCursor = cursorAt(next)
	}
	return text("%s", listText(out)), out, nil
}

// listVault lists the memories of one vault that pass the filters.
func (s *Server) listVault(where string, v *vault.Vault, in listInput) []listed {
	var out []listed
	for _, e := range s.validEntries(v) {
		m := e.Memory
		status := string(m.Status)
		if status == "" {
			status = string(memory.StatusActive)
		}
		if (in.Type != "" && string(m.Type) != in.Type) || (in.Status != "" && status != in.Status) {
			continue
		}
		out = append(out, listed{Name: e.Name, Vault: where, Type: string(m.Type), Status: status,
			Description: m.Description, Updated: date(m.Updated), Review: reviewOf(m)})
	}
	return out
}

// listText renders a page for clients that show text.
func listText(o listOutput) string {
	var b strings.Builder
	b.WriteString(plural.N(o.Total, "memory", "memories"))
	if len(o.Memories) < o.Total {
		fmt.Fprintf(&b, ", %d shown", len(o.Memories))
	}
	b.WriteString(":\n")
	for _, m := range o.Memories {
		status := ""
		if m.Status != string(memory.StatusActive) {
			status = ", " + m.Status
		}
		if m.Review != "" {
			status += "; " + m.Review
		}
		fmt.Fprintf(&b, "- %s (%s %s%s) — %s\n", m.Name, m.Vault, m.Type, status, m.Description)
	}
	if o.NextCursor != "" {
		fmt.Fprintf(&b, "Next page: call list with cursor %q.\n", o.NextCursor)
	}
	return b.String()
}
