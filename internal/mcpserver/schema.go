package mcpserver

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaFor infers the JSON schema of T, as the SDK would, then lets edit
// refine it (enums, bounds). A slice's inferred type, ["null", "array"], is
// narrowed to "array": clients warn about the union, and mnemo never sends
// null where a list goes.
func schemaFor[T any](edit func(s *jsonschema.Schema)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err)) // a programming error
	}
	narrowArrays(s)
	if edit != nil {
		edit(s)
	}
	return s
}

func narrowArrays(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") && slices.Contains(s.Types, "array") {
		s.Type, s.Types = "array", nil
	}
	for _, p := range s.Properties {
		narrowArrays(p)
	}
	narrowArrays(s.Items)
}

// enum restricts a string property to values.
func enum(s *jsonschema.Schema, prop string, values ...string) {
	p := s.Properties[prop]
	if p.Items != nil {
		p = p.Items
	}
	for _, v := range values {
		p.Enum = append(p.Enum, v)
	}
}

// bounds sets a number property's minimum and maximum.
func bounds(s *jsonschema.Schema, prop string, lo, hi float64) {
	s.Properties[prop].Minimum, s.Properties[prop].Maximum = &lo, &hi
}

// describeProp sets a property's description, for text a struct tag cannot
// hold (a number from elsewhere).
func describeProp(s *jsonschema.Schema, prop, text string) { s.Properties[prop].Description = text }

// require marks properties required.
func require(s *jsonschema.Schema, props ...string) { s.Required = append(s.Required, props...) }

var closedWorld = new(bool) // false: every tool works on the vaults alone

// readOnly annotates a tool that changes no memory.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closedWorld}
}

// writes annotates a tool that changes memories.
func writes(title string, destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: &destructive, IdempotentHint: idempotent, OpenWorldHint: closedWorld}
}
