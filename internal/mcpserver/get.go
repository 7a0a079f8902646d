package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// Bounds of get's answer.
const (
	bodyPage     = 16_000 // bytes of body per answer; next_cursor pages on
	maxLinksShow = 50     // memories listed as linked, each way
)

type getInput struct {
	Name   string `json:"name" jsonschema:"the memory's name, as recall, list and MEMORY.md show it"`
	Cursor string `json:"cursor,omitempty" jsonschema:"the next_cursor of a previous answer, for the rest of a long body"`
}

// A linked memory, named with its description.
type linked struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Missing     bool   `json:"missing,omitempty"` // a link to a memory not written yet
}

type getOutput struct {
	Name         string   `json:"name"`
	Vault        string   `json:"vault"`
	Type         string   `json:"type"`
	Description  string   `json:"description"`
	Body         string   `json:"body"`
	NextCursor   string   `json:"next_cursor,omitempty"`
	Created      string   `json:"created,omitempty"`
	Updated      string   `json:"updated,omitempty"`
	Source       string   `json:"source,omitempty"`
	Why          string   `json:"why,omitempty"`
	Confidence   float64  `json:"confidence"`
	Status       string   `json:"status"`
	SupersededBy string   `json:"superseded_by,omitempty"`
	ReviewBy     string   `json:"review_by,omitempty"`
	Files        []string `json:"files,omitempty"`
	Tags         []string `json:"tags,omitempty"`
	Stale        []string `json:"stale,omitempty"`
	Links        []linked `json:"links,omitempty"`
	LinkedFrom   []linked `json:"linked_from,omitempty"`
	Review       string   `json:"review,omitempty"` // as recall's: set on a memory no one reviewed
	Note         string   `json:"note"`
}

const getDescription = `Read one memory whole: its body and header (type, when it was written and updated, source, why, confidence, status), the files it is anchored to with "stale" reasons when they changed since, and the descriptions of the memories it links to ([[name]]) and of those that link to it. Use it after recall or list when a description is not enough. A long body comes in pages (next_cursor).`

func (s *Server) addGet() {
	addTool(s.mcp, &mcp.Tool{
		Name:         "get",
		Description:  getDescription,
		Annotations:  readOnly("Read a memory"),
		InputSchema:  schemaFor[getInput](nil),
		OutputSchema: schemaFor[getOutput](nil),
	}, s.get)
}

func (s *Server) get(ctx context.Context, _ *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, getOutput, error) {
	f, err := s.find(in.Name)
	if err != nil {
		return nil, getOutput{}, err
	}
	if err := refuseInvalid(memoryName(in.Name), f.m); err != nil {
		return nil, getOutput{}, err
	}
	start, err := offset(in.Cursor)
	if err != nil {
		return nil, getOutput{}, err
	}
	m := f.m
	out := getOutput{
		Name: m.Name, Vault: f.where, Type: string(m.Type), Description: m.Description,
		Source: m.Source, Why: m.Why, Confidence: m.Confidence, Status: string(m.Status),
		SupersededBy: m.SupersededBy, Note: staleNote,
		Created: date(m.Created), Updated: date(m.Updated), ReviewBy: date(m.ReviewBy),
		Review: reviewOf(m),
	}
	// an import's source is free text, as why is
	out.Description, out.Why, out.Source = shown(out.Description), shown(out.Why), shown(out.Source)
	whole := shown(m.Body) // before paging, so a page boundary cannot split a secret
	body := whole[min(start, len(whole)):]
	page, more := cut(body, bodyPage)
	out.Body = page
	if more {
		out.NextCursor = cursorAt(start + len(page))
	}
	for _, a := range m.Anchors.Files {
		out.Files = append(out.Files, shown(a.Path))
	}
	for _, t := range m.Tags {
		out.Tags = append(out.Tags, shown(t))
	}
	if s.cfg.Root != "" {
		out.Stale = staleness.Changed(s.cfg.Root, m, &s.hashes)
	}
	out.Links = s.linksOf(m)
	db, done, err := s.index(ctx)
	if err != nil {
		return nil, out, err
	}
	defer done()
	if out.LinkedFrom, err = linkedFrom(ctx, db, index.Key{Source: f.where, Name: m.Name}); err != nil {
		return nil, out, err
	}
	s.recordRecall(index.Key{Source: f.where, Name: m.Name})
	return text("%s", getText(out)), out, nil
}

// date formats a header time as RFC 3339, or "" when the key is absent.
func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// linksOf names the memories m links to, with their descriptions.
func (s *Server) linksOf(m *memory.Memory) []linked {
	var out []linked
	for _, name := range m.Links() {
		if len(out) == maxLinksShow {
			break
		}
		if f, err := s.find(name); err == nil && refuseInvalid(name, f.m) == nil {
			out = append(out, linked{Name: name, Description: shown(f.m.Description)})
		} else {
			out = append(out, linked{Name: shown(name), Missing: true}) // a link's target is the body's text
		}
	}
	return out
}

// linkedFrom names the memories that link to key, from the index.
func linkedFrom(ctx context.Context, db *index.DB, key index.Key) ([]linked, error) {
	ids, err := db.Lookup(ctx, []index.Key{key})
	if err != nil {
		return nil, err
	}
	id, ok := ids[key]
	if !ok {
		return nil, nil // not indexed yet (a file the index skipped)
	}
	links, err := db.Links(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	var from []int64
	for _, l := range links {
		if l.To == id && len(from) < maxLinksShow {
			from = append(from, l.From)
		}
	}
	docs, err := db.Docs(ctx, from)
	if err != nil {
		return nil, err
	}
	out := make([]linked, 0, len(docs))
	for _, d := range docs {
		out = append(out, linked{Name: d.Name, Description: shown(d.Description)})
	}
	slices.SortFunc(out, func(a, b linked) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// getText renders a memory for clients that show text.
func getText(o getOutput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s vault, %s, status %s, confidence %g)\n", o.Name, o.Vault, o.Type, o.Status, o.Confidence)
	if o.Review != "" {
		fmt.Fprintf(&b, "%s: %s\n", o.Review, unreviewedNote)
	}
	b.WriteString(o.Description + "\n")
	fmt.Fprintf(&b, "created %s, updated %s, source %s\n", o.Created, o.Updated, o.Source)
	if o.Why != "" {
		fmt.Fprintf(&b, "why: %s\n", o.Why)
	}
	b.WriteString("\n" + o.Body)
	if o.NextCursor != "" {
		fmt.Fprintf(&b, "\n[body continues: call get with cursor %q]\n", o.NextCursor)
	}
	for _, st := range o.Stale {
		fmt.Fprintf(&b, "stale: %s\n", st)
	}
	for _, l := range o.Links {
		fmt.Fprintf(&b, "links to %s: %s\n", l.Name, l.Description)
	}
	for _, l := range o.LinkedFrom {
		fmt.Fprintf(&b, "linked from %s: %s\n", l.Name, l.Description)
	}
	b.WriteString(staleNote + "\n")
	return b.String()
}
