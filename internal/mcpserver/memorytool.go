package mcpserver

import (
	"context"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

type memoryInput struct {
	Command    string `json:"command" jsonschema:"view, create, str_replace, insert, delete or rename"`
	Path       string `json:"path,omitempty" jsonschema:"/memories, or a file in it: /memories/<name>.md"`
	ViewRange  []int  `json:"view_range,omitempty" jsonschema:"view: [first, last] line, 1-based; last -1 means the end"`
	FileText   string `json:"file_text,omitempty" jsonschema:"create: the file's text; a YAML header is added when it has none"`
	OldStr     string `json:"old_str,omitempty" jsonschema:"str_replace: text that occurs exactly once in the file"`
	NewStr     string `json:"new_str,omitempty" jsonschema:"str_replace: the text to put in its place"`
	InsertLine *int   `json:"insert_line,omitempty" jsonschema:"insert: the line after which the text goes; 0 puts it first"`
	InsertText string `json:"insert_text,omitempty" jsonschema:"insert: the text to insert"`
	OldPath    string `json:"old_path,omitempty" jsonschema:"rename: the file to rename"`
	NewPath    string `json:"new_path,omitempty" jsonschema:"rename: its new path"`
}

const memoryDescription = `Anthropic's memory tool, on mnemo's project vault. /memories is the vault: one memory per file, /memories/<name>.md (the name in lowercase letters, digits and '-'; no subfolders), each a markdown body under a small YAML header (name, description, type), plus the generated index /memories/MEMORY.md, which is read-only.

Commands, with the parameters and answers of Anthropic's memory tool: view (the folder, or a file with line numbers; view_range [first, last]), create (path, file_text), str_replace (path, old_str, new_str), insert (path, insert_line, insert_text), delete (path), rename (old_path, new_path).

A file created without a header gets one: its name, a description from its first line, type project; its source is agent whatever the header says. It is created only when the user said what it holds in this session; otherwise it waits for review in the inbox, and the answer says so and why. An edit that would make a memory carry an instruction (run a command, fetch a URL, change a permission) the user did not give is refused. An edit that would leave an invalid header is refused. delete moves the file out of the vault to mnemo's forgotten/ folder, whence a person can restore it. To find and store facts, recall and remember are simpler; this tool edits the files themselves.`

func (s *Server) addMemoryTool() {
	addTool(s.mcp, &mcp.Tool{
		Name:        "memory",
		Description: memoryDescription,
		Annotations: writes("Memory files under /memories", true, false),
		InputSchema: schemaFor[memoryInput](func(sc *jsonschema.Schema) {
			enum(sc, "command", "view", "create", "str_replace", "insert", "delete", "rename")
			require(sc, "command")
		}),
	}, s.memoryTool)
}

// memoryTool answers with text only: Claude Code gives the model the
// structuredContent instead of the text when a result has both, and the
// text is what must read as Anthropic's tool reads.
func (s *Server) memoryTool(ctx context.Context, _ *mcp.CallToolRequest, in memoryInput) (*mcp.CallToolResult, any, error) {
	var answer string
	var err error
	switch in.Command {
	case "view":
		answer, err = s.memView(in)
	case "create":
		answer, err = s.memCreate(ctx, in)
	case "str_replace":
		answer, err = s.memReplace(ctx, in)
	case "insert":
		answer, err = s.memInsert(ctx, in)
	case "delete":
		answer, err = s.memDelete(ctx, in)
	case "rename":
		answer, err = s.memRename(ctx, in)
	default:
		err = toolErrorf("Unknown command: %s. Use view, create, str_replace, insert, delete or rename.", in.Command)
	}
	if err != nil {
		var te *toolError
		if !errors.As(err, &te) && !errors.Is(err, redact.ErrSecret) { // a refused secret is the agent's to fix; its path may hold it
			s.cfg.Log.Error("memory tool", "command", in.Command, "path", in.Path, "err", err)
		}
		return nil, nil, err
	}
	if in.Command != "view" {
		s.synced(ctx)
	}
	return text("%s", answer), nil, nil
}
