package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// Gemini CLI records a session as one JSON document
// (~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.json), rewritten
// whole as the session goes: {"sessionId", "startTime", "lastUpdated",
// "messages": [...]}, each message {"id", "timestamp", "type" (user,
// gemini, info, error), "content", "toolCalls"}. A Reader opened on such a
// file reads it whole and returns the entries of its messages. Its offsets
// count messages, not bytes: the document is rewritten, so a byte offset
// would not stay where it was, but its messages only grow at the end.
//
// The common tools become their Claude Code equivalents (run_shell_command
// a Bash call, read_file a Read, write_file a Write, replace an Edit…), as
// for Codex (codex.go).

// maxGeminiBytes bounds the size of a Gemini session file read.
const maxGeminiBytes = 256 << 20

type geminiSession struct {
	SessionID string          `json:"sessionId"`
	Kind      string          `json:"kind"` // main, or subagent
	Messages  []geminiMessage `json:"messages"`
}

type geminiMessage struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"` // a string, or parts [{"text"}]
	Model     string          `json:"model"`
	ToolCalls []geminiCall    `json:"toolCalls"`
}

type geminiCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Status string          `json:"status"` // success, error, cancelled
	Result []struct {
		FunctionResponse struct {
			Response struct {
				Output json.RawMessage `json:"output"`
				Error  json.RawMessage `json:"error"`
			} `json:"response"`
		} `json:"functionResponse"`
	} `json:"result"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
	AgentID       string          `json:"agentId"` // invoke_agent: the sub-agent's session
}

// looksGemini reports whether the head of a file is a JSON document rather
// than JSON lines: a first line that opens an object without closing it,
// or one that is a whole session document: "sessionId", "projectHash"
// and "messages", or, as some versions write it without "projectHash",
// "sessionId" as its first key and a "messages" list. Claude Code's
// lines start with another key and have no "messages" list.
func looksGemini(head []byte) bool {
	first, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	first = bytes.TrimSpace(first)
	if bytes.Equal(first, []byte("{")) || looksGeminiLog(first) {
		return true
	}
	if !bytes.HasPrefix(first, []byte("{")) || !bytes.Contains(first, []byte(`"sessionId"`)) {
		return false
	}
	if bytes.Contains(first, []byte(`"projectHash"`)) && bytes.Contains(first, []byte(`"messages"`)) {
		return true
	}
	return bytes.HasPrefix(bytes.TrimLeft(first[1:], " \t"), []byte(`"sessionId"`)) && geminiListRE.MatchString(string(first))
}

// geminiListRE finds the key of a Gemini session's list of messages.
var geminiListRE = lazyregexp.New(`"messages"\s*:\s*\[`)

// openGemini makes r read the Gemini session in src from message offset.
func (r *Reader) openGemini(src io.Reader, offset int64) error {
	r.gemini, r.geminiEnd = true, offset
	data, err := io.ReadAll(io.LimitReader(src, maxGeminiBytes+1))
	if err != nil {
		return err
	}
	if len(data) > maxGeminiBytes {
		return fmt.Errorf("a Gemini session larger than %d MB", maxGeminiBytes>>20)
	}
	data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	var s geminiSession
	if first, _, _ := bytes.Cut(data, []byte("\n")); looksGeminiLog(bytes.TrimSpace(first)) {
		s = foldGeminiLog(data)
	} else if err := json.Unmarshal(data, &s); err != nil {
		// Caught while Gemini CLI rewrites it, most likely: an error, so
		// that the job is retried later rather than done with nothing.
		return fmt.Errorf("the Gemini session is not a whole JSON document (being written?): %w", err)
	}
	if offset > int64(len(s.Messages)) {
		return fmt.Errorf("%w (%d messages)", ErrOffset, len(s.Messages))
	}
	side := s.Kind == "subagent"
	r.meta.observe(s.SessionID, "", "", "", side)
	setFirst(&r.meta.main.Agent, "gemini")
	for i := int(offset); i < len(s.Messages); i++ {
		m := s.Messages[i]
		ts := parseTime(m.Timestamp)
		r.meta.observeTime(ts)
		r.stats.Lines++
		for _, e := range geminiEntries(m, ts) {
			e.SessionID, e.Offset, e.End = s.SessionID, int64(i), int64(i+1)
			if side { // a sub-agent's session: its thread is its id
				e.Sidechain, e.AgentID = true, s.SessionID
			}
			r.queued = append(r.queued, e)
		}
	}
	r.geminiEnd = int64(len(s.Messages))
	r.br = bufio.NewReader(bytes.NewReader(nil)) // every message is queued
	return nil
}

// geminiEntries turns one message into entries: a user prompt; an
// assistant's text and tool calls, then the calls' results.
func geminiEntries(m geminiMessage, ts time.Time) []Entry {
	text := geminiText(m.Content)
	switch m.Type {
	case "user":
		if text = geminiUserText(text); strings.TrimSpace(text) == "" {
			return nil
		}
		return []Entry{{Type: "user", Role: "user", Time: ts, Content: []Block{{Type: "text", Text: text}}}}
	case "gemini":
		a := Entry{Type: "assistant", Role: "assistant", Model: m.Model, Time: ts}
		if strings.TrimSpace(text) != "" {
			a.Content = append(a.Content, Block{Type: "text", Text: text})
		}
		res := Entry{Type: "user", Role: "user", Time: ts}
		for _, c := range m.ToolCalls {
			name, input := geminiTool(c.Name, c.Args)
			a.Content = append(a.Content, Block{Type: "tool_use", ID: c.ID, Name: name, Input: input})
			out, failed := c.output()
			if name == "Bash" {
				var code bool
				out, code = geminiShell(out)
				failed = failed || code
			}
			content, _ := json.Marshal(out)
			res.Content = append(res.Content, Block{Type: "tool_result", ToolUseID: c.ID, Content: content, IsError: failed})
		}
		var out []Entry
		if len(a.Content) > 0 {
			out = append(out, a)
		}
		if len(res.Content) > 0 {
			out = append(out, res)
		}
		return out
	}
	return nil // info, error, warning: the CLI's own notices
}

// geminiShell rewrites run_shell_command's report ("Command: …",
// "Directory: …", "Stdout: …", "Stderr: …", "Exit Code: 1", …) as Claude
// Code words a command's result: the output, led by "Exit code N" when
// the command failed, and whether it did. Gemini CLI 0.61 leaves out the
// command and wraps the report in <untrusted_context>.
func geminiShell(s string) (string, bool) {
	s = untrusted(s)
	if !strings.HasPrefix(s, "Command: ") && !strings.HasPrefix(s, "Output: ") {
		return s, false
	}
	var b strings.Builder
	code, field := "", ""
	for line := range strings.SplitSeq(s, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && geminiShellField(k) {
			field, line = k, v
			if k == "Exit Code" {
				code = strings.TrimSpace(v)
			}
			if v == "(empty)" || v == "(none)" {
				continue
			}
		}
		switch field {
		case "Stdout", "Stderr", "Output", "Error":
			b.WriteString(line + "\n")
		}
	}
	if code != "" && code != "0" {
		return "Exit code " + code + "\n" + b.String(), true
	}
	return b.String(), false
}

// geminiShellField reports whether k names a field of run_shell_command's report.
func geminiShellField(k string) bool {
	switch k {
	case "Command", "Directory", "Stdout", "Stderr", "Output", "Error", "Exit Code", "Signal", "Background PIDs", "Process Group PGID":
		return true
	}
	return false
}

// geminiText is a message's content: a string, or the text of its parts.
func geminiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// geminiTool maps a Gemini CLI tool to the Claude Code tool of the same
// use, with the arguments the digest reads.
func geminiTool(name string, args json.RawMessage) (string, json.RawMessage) {
	var in struct {
		Command      string `json:"command"`
		FilePath     string `json:"file_path"`
		AbsolutePath string `json:"absolute_path"`
		Path         string `json:"path"`
		Pattern      string `json:"pattern"`
		Query        string `json:"query"`
	}
	json.Unmarshal(args, &in)
	file := in.FilePath
	if file == "" {
		file = in.AbsolutePath
	}
	arg := func(k, v string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{k: v})
		return b
	}
	switch name {
	case "run_shell_command":
		return "Bash", arg("command", in.Command)
	case "read_file":
		return "Read", arg("file_path", file)
	case "write_file":
		return "Write", arg("file_path", file)
	case "replace", "edit":
		return "Edit", arg("file_path", file)
	case "glob":
		return "Glob", arg("pattern", in.Pattern)
	case "search_file_content", "grep", "grep_search":
		return "Grep", arg("pattern", in.Pattern)
	case "google_web_search":
		return "WebSearch", arg("query", in.Query)
	case "invoke_agent":
		var a struct {
			Agent  string `json:"agent_name"`
			Prompt string `json:"prompt"`
		}
		json.Unmarshal(args, &a)
		b, _ := json.Marshal(map[string]string{"description": oneLine(a.Prompt), "prompt": a.Prompt, "subagent_type": a.Agent})
		return "Task", b
	}
	if !json.Valid(args) {
		args = json.RawMessage("{}")
	}
	return name, args
}

// output returns a tool call's output and whether it failed.
func (c geminiCall) output() (string, bool) {
	failed := c.Status == "error" || c.Status == "cancelled"
	var parts []string
	for _, r := range c.Result {
		resp := r.FunctionResponse.Response
		if len(resp.Error) > 0 && string(resp.Error) != "null" {
			failed = true
			parts = append(parts, geminiText(resp.Error))
		} else if len(resp.Output) > 0 {
			parts = append(parts, geminiText(resp.Output))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, geminiText(c.ResultDisplay))
	}
	return strings.Join(parts, "\n"), failed
}

// GeminiSessionID returns the session id a Gemini CLI session file holds
// (the one its hooks send), reading no further than that key; "" when the
// file is not a session.
func GeminiSessionID(path string) string {
	f, _, err := safefile.Open(path, MaxFileSize) // a FIFO or a device is refused, never waited on
	if err != nil {
		return ""
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReader(f))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		if key == "sessionId" {
			var id string
			if dec.Decode(&id) != nil {
				return ""
			}
			return id
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return ""
		}
	}
	return ""
}
