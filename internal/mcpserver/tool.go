package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A handler is a typed tool handler, as the SDK's [mcp.ToolHandlerFor].
type handler[In, Out any] func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)

// addTool registers a typed tool as [mcp.AddTool] does: the arguments are
// validated against the input schema and decoded into In, an error becomes
// an isError result the model can read, and Out becomes structuredContent
// (and the text, when the handler gave none). Unlike mcp.AddTool it does
// not validate Out against the output schema on every call: the outputs
// are built to their schemas (the tests check every answer), and the
// validation round trip cost a tenth of a recall.
func addTool[In, Out any](s *mcp.Server, t *mcp.Tool, h handler[In, Out]) {
	schema, ok := t.InputSchema.(*jsonschema.Schema)
	if !ok {
		panic(fmt.Sprintf("mcpserver: tool %s: input schema is %T", t.Name, t.InputSchema))
	}
	resolved, err := schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: tool %s: %v", t.Name, err))
	}
	s.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		in, err := decode[In](resolved, req.Params.Arguments)
		if err != nil {
			return failed(err), nil
		}
		res, out, err := h(ctx, req, in)
		if err != nil {
			return failed(err), nil
		}
		if res == nil {
			res = &mcp.CallToolResult{}
		}
		if any(out) == nil {
			return res, nil // a tool that answers text only
		}
		if res.Content != nil {
			// Encoded once, with the answer: marshaled here first, it
			// was encoded again, and compacted, as raw JSON (a tenth
			// of a millisecond of a recall's CPU).
			res.StructuredContent = out
			return res, nil
		}
		data, err := json.Marshal(out)
		if err != nil {
			return nil, fmt.Errorf("marshaling output: %w", err)
		}
		res.StructuredContent = json.RawMessage(data)
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(data)}}
		return res, nil
	})
}

// decode validates a call's arguments and decodes them.
func decode[In any](resolved *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var in In
	var args any = map[string]any{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	if err := resolved.Validate(&args); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %w", err)
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &in); err != nil {
			return in, err
		}
	}
	return in, nil
}

// failed is the result of a call that failed: isError, with the error as
// text; a write refused for a secret says so in the words of [refusal].
// The text is at most [maxErrorText]: an error quoting an argument (a
// name, a cursor, a value the schema refuses) never hands a megabyte of
// it back into the agent's context; and it is redacted, so that no error
// repeats a secret an argument held (the session's transcript keeps the
// answer).
func failed(err error) *mcp.CallToolResult {
	var res mcp.CallToolResult
	res.SetError(errors.New(clip(shown(refusal(err).Error()), maxErrorText)))
	return &res
}

// maxErrorText bounds the text of a failed call, in bytes.
const maxErrorText = 2 << 10
