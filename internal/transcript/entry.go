package transcript

import (
	"encoding/json"
	"strings"
	"time"
)

// An Entry is one conversation line of a transcript: a user or assistant
// message, a system record, a legacy summary or an attachment. Lines of other
// types (progress, file-history-snapshot, queue-operation…) are not entries.
type Entry struct {
	Offset int64 // byte offset of the line's first byte
	End    int64 // byte offset just past the line (after its newline)

	Type    string // "user", "assistant", "system", "summary" or "attachment"
	Subtype string // system lines: "compact_boundary", "local_command", …

	UUID              string
	ParentUUID        string // empty at a root and right after a compaction boundary
	LogicalParentUUID string // compaction boundary: the last entry before it
	LeafUUID          string // summary: the last entry of the conversation it titles
	SessionID         string
	CWD               string
	GitBranch         string
	Version           string // Claude Code version
	AgentID           string // sub-agent entries of recent versions
	Time              time.Time

	Sidechain      bool // written by a sub-agent
	Meta           bool // isMeta: a caveat or a slash-command expansion, not typed by a person
	CompactSummary bool // the user entry holding the summary written at a compaction

	Role      string // message role: "user" or "assistant"
	MessageID string // assistant: the API message id shared by the lines of one response
	RequestID string // assistant
	Model     string // assistant

	// Content holds the message's blocks. A message whose content was a plain
	// string has one text block and StringContent set. Blocks of an assistant
	// message already returned by an earlier line are left out (see [Reader]).
	Content       []Block
	StringContent bool

	// Text is the payload of entries that have no message: a system line's
	// content, a summary line's summary, a queued prompt's text.
	Text string

	Compact *CompactInfo   // compaction boundary details, when present
	Result  *ToolUseResult // the structured toolUseResult of a tool-result user line
	// DenialKind is the toolDenialKind Claude Code (2.1.202 and later)
	// writes on the line of a call it did not run: "user-rejected" when the
	// person rejected it, "permission-rule", "automode-blocked",
	// "cancelled", "interrupted"…
	DenialKind string
	Queued     bool // an attachment holding a prompt typed while the agent worked
}

// A Block is one content block of a message.
type Block struct {
	Type      string          // "text", "thinking", "redacted_thinking", "tool_use", "tool_result", "image", or as written
	Text      string          // text, or thinking
	ID        string          // tool_use: the call's id
	Name      string          // tool_use: the tool's name
	Input     json.RawMessage // tool_use: the call's arguments
	ToolUseID string          // tool_result: the id of the call it answers
	IsError   bool            // tool_result: the tool reported an error
	MediaType string          // image: its media type; the image data is never kept

	// Content is a tool_result's content as written: a JSON string or a
	// list of blocks. It is kept undecoded because most tool output (file
	// contents, command output) is never shown; see [Block.ResultText].
	Content json.RawMessage
}

// ResultText decodes a tool_result's content: its text, or its text blocks
// joined by newlines with images as "[image]". Content of another shape
// gives "".
func (b Block) ResultText() string {
	var t flexText
	_ = t.UnmarshalJSON(b.Content)
	return string(t)
}

// CompactInfo describes a compaction boundary.
type CompactInfo struct {
	Trigger   string `json:"trigger"`   // "manual" or "auto"
	PreTokens int    `json:"preTokens"` // context size before the compaction
}

// A ToolUseResult is the part of a tool-result line's structured
// toolUseResult that the digest needs. A toolUseResult written as a bare
// string (such as "Error: …", which repeats the tool_result, or "User
// rejected tool use") is kept as Text, the rest empty.
type ToolUseResult struct {
	Text string `json:"-"` // the toolUseResult, when written as a string

	Kind        string `json:"type"` // "create" or "update" for Write, "text" for Read…
	FilePath    string `json:"filePath"`
	Interrupted bool   `json:"interrupted"`
	AgentID     string `json:"agentId"` // Task, Agent: the sub-agent that did the work

	// Answers holds AskUserQuestion's answers, by question.
	Answers map[string]answerText `json:"answers"`
}

// UnmarshalJSON reads a toolUseResult object, or one written as a string
// into Text. It never fails; an unexpected shape is empty.
func (r *ToolUseResult) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		_ = json.Unmarshal(b, &r.Text)
	case '{':
		type plain ToolUseResult // without this method
		var p plain
		if json.Unmarshal(b, &p) == nil {
			*r = ToolUseResult(p)
		}
	}
	return nil
}

// answerText is an answer written as a string or as a list of the
// options chosen, joined with ", ".
type answerText string

// UnmarshalJSON never fails; an unexpected shape is empty.
func (a *answerText) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			*a = answerText(s)
		}
	case '[':
		var list []string
		if json.Unmarshal(b, &list) == nil {
			*a = answerText(strings.Join(list, ", "))
		}
	}
	return nil
}

// wireLine is the JSON shape of a line. Fields the digest does not need are
// absent so the decoder skips them without allocating.
type wireLine struct {
	Type              string          `json:"type"`
	Subtype           string          `json:"subtype"`
	UUID              string          `json:"uuid"`
	ParentUUID        string          `json:"parentUuid"`
	LogicalParentUUID string          `json:"logicalParentUuid"`
	LeafUUID          string          `json:"leafUuid"`
	SessionID         string          `json:"sessionId"`
	CWD               string          `json:"cwd"`
	GitBranch         string          `json:"gitBranch"`
	Version           string          `json:"version"`
	AgentID           string          `json:"agentId"`
	Timestamp         string          `json:"timestamp"`
	IsSidechain       bool            `json:"isSidechain"`
	IsMeta            bool            `json:"isMeta"`
	IsCompactSummary  bool            `json:"isCompactSummary"`
	RequestID         string          `json:"requestId"`
	Message           *wireMessage    `json:"message"`
	Content           flexText        `json:"content"`
	Summary           string          `json:"summary"`
	CompactMetadata   *CompactInfo    `json:"compactMetadata"`
	ToolUseResult     *ToolUseResult  `json:"toolUseResult"`
	ToolDenialKind    string          `json:"toolDenialKind"`
	Attachment        *wireAttach     `json:"attachment"`
	Payload           json.RawMessage `json:"payload"` // Codex rollout lines (see codex.go)
}

type wireMessage struct {
	ID      string      `json:"id"`
	Role    string      `json:"role"`
	Model   string      `json:"model"`
	Content wireContent `json:"content"`
}

type wireAttach struct {
	Type        string   `json:"type"`
	CommandMode string   `json:"commandMode"`
	IsMeta      bool     `json:"isMeta"`
	Prompt      flexText `json:"prompt"`
	Origin      *struct {
		Kind string `json:"kind"`
	} `json:"origin"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *struct {
		MediaType string  `json:"media_type"`
		Data      skipped `json:"data"`
	} `json:"source"`
}

// wireContent is a message's content: a string or a list of blocks.
type wireContent struct {
	blocks   []wireBlock
	isString bool
}

// UnmarshalJSON never fails: content of an unexpected shape is empty, so one
// odd field cannot cost the rest of the line.
func (c *wireContent) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			c.blocks, c.isString = []wireBlock{{Type: "text", Text: s}}, true
		}
	case '[':
		var blocks []wireBlock
		_ = json.Unmarshal(b, &blocks) // a type error inside still fills what it can
		c.blocks = blocks
	}
	return nil
}

// flexText is text written either as a string or as a list of blocks whose
// text parts are joined with newlines (images become "[image]").
type flexText string

// UnmarshalJSON never fails; an unexpected shape is empty text.
func (t *flexText) UnmarshalJSON(b []byte) error {
	switch firstByte(b) {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			*t = flexText(s)
		}
	case '[':
		var blocks []wireBlock
		_ = json.Unmarshal(b, &blocks)
		var sb strings.Builder
		for _, bl := range blocks {
			var part string
			switch bl.Type {
			case "text":
				part = bl.Text
			case "image":
				part = "[image]"
			default:
				continue
			}
			if sb.Len() > 0 {
				sb.WriteByte('\n')
			}
			sb.WriteString(part)
		}
		*t = flexText(sb.String())
	}
	return nil
}

// skipped is a JSON value the decoder must step over without copying it,
// such as the base64 data of an image.
type skipped struct{}

// UnmarshalJSON discards the value.
func (*skipped) UnmarshalJSON([]byte) error { return nil }

func firstByte(b []byte) byte {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

// conversational reports whether lines of type t are returned as entries.
func conversational(t string) bool {
	switch t {
	case "user", "assistant", "system", "summary", "attachment":
		return true
	}
	return false
}

// toEntry converts a decoded line. It reports false for attachments that
// carry nothing the conversation needs.
func (w *wireLine) toEntry(ts time.Time) (Entry, bool) {
	e := Entry{
		Type: w.Type, Subtype: w.Subtype,
		UUID: w.UUID, ParentUUID: w.ParentUUID, LogicalParentUUID: w.LogicalParentUUID, LeafUUID: w.LeafUUID,
		SessionID: w.SessionID, CWD: w.CWD, GitBranch: w.GitBranch, Version: w.Version,
		AgentID: w.AgentID, Time: ts,
		Sidechain: w.IsSidechain, Meta: w.IsMeta, CompactSummary: w.IsCompactSummary,
		RequestID: w.RequestID, Compact: w.CompactMetadata, Result: w.ToolUseResult,
		DenialKind: w.ToolDenialKind,
	}
	switch w.Type {
	case "system":
		e.Text = string(w.Content)
	case "summary":
		e.Text = w.Summary
	case "attachment":
		a := w.Attachment
		if a == nil || a.Type != "queued_command" || a.IsMeta ||
			(a.CommandMode != "" && a.CommandMode != "prompt") ||
			(a.Origin != nil && a.Origin.Kind != "" && a.Origin.Kind != "human") {
			return e, false
		}
		e.Text, e.Queued = string(a.Prompt), true
	}
	if m := w.Message; m != nil {
		e.Role, e.MessageID, e.Model = m.Role, m.ID, m.Model
		e.StringContent = m.Content.isString
		e.Content = make([]Block, 0, len(m.Content.blocks))
		for _, b := range m.Content.blocks {
			e.Content = append(e.Content, b.toBlock())
		}
	}
	return e, true
}

func (b *wireBlock) toBlock() Block {
	out := Block{Type: b.Type, ID: b.ID, Name: b.Name, Input: b.Input, ToolUseID: b.ToolUseID, IsError: b.IsError}
	switch b.Type {
	case "thinking":
		out.Text = b.Thinking
	case "tool_result":
		out.Content = b.Content
	case "image":
		if b.Source != nil {
			out.MediaType = b.Source.MediaType
		}
	default:
		out.Text = b.Text
	}
	return out
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}
