package transcript

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Codex CLI writes a session as a rollout file
// (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl), JSONL too, each
// line {"timestamp", "type", "payload"}. A Reader reads those as well: it
// turns each line into the Entry a Claude Code line of the same meaning
// would be, so that the Builder, the digest and extraction need not know
// which agent wrote the session.
//
//   - session_meta and turn_context: the session's id, folder, branch and
//     version; no entry.
//   - response_item: a user or assistant message (its text), a function or
//     custom tool call (a tool_use, its output a tool_result), or reasoning
//     (left out, as thinking is). The user messages Codex writes itself
//     (environment context, AGENTS.md instructions) are Meta.
//   - compacted: the summary a compaction left, as a compaction summary.
//   - event_msg: left out; each repeats a response_item for the interface.
//
// The common tools become their Claude Code equivalents: shell and
// exec_command a Bash call with the command as one string, apply_patch an
// Edit (a Write for an added file) of each file the patch names.

// codexLine is the payload of a rollout line, all kinds in one.
type codexLine struct {
	Type string `json:"type"`

	// session_meta, turn_context
	ID         string `json:"id"`
	CWD        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Git        *struct {
		Branch string `json:"branch"`
	} `json:"git"`

	// response_item: message
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`

	// response_item: function_call, custom_tool_call, local_shell_call and
	// their outputs
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    *struct {
		Command []string `json:"command"`
	} `json:"action"`

	// compacted
	Message string `json:"message"`
}

// isCodexLine reports whether a line's type is one of a rollout's.
func isCodexLine(typ string) bool {
	switch typ {
	case "session_meta", "turn_context", "response_item", "compacted", "event_msg":
		return true
	}
	return false
}

// codexEntry turns a rollout line into an entry; false for lines that are
// not one.
func (r *Reader) codexEntry(typ string, payload json.RawMessage, ts time.Time) (Entry, bool) {
	var p codexLine
	if err := json.Unmarshal(payload, &p); err != nil {
		return Entry{}, false
	}
	switch typ {
	case "session_meta":
		branch := ""
		if p.Git != nil {
			branch = p.Git.Branch
		}
		r.meta.observe(p.ID, p.CWD, branch, p.CLIVersion, false)
		setFirst(&r.meta.main.Agent, "codex")
		return Entry{}, false
	case "turn_context":
		r.meta.observe("", p.CWD, "", "", false)
		return Entry{}, false
	case "compacted":
		if strings.TrimSpace(p.Message) == "" {
			return Entry{}, false
		}
		return Entry{Type: "user", Role: "user", Time: ts, CompactSummary: true,
			Content: []Block{{Type: "text", Text: p.Message}}}, true
	case "response_item":
		return r.codexItem(p, ts)
	}
	return Entry{}, false
}

func (r *Reader) codexItem(p codexLine, ts time.Time) (Entry, bool) {
	user := Entry{Type: "user", Role: "user", Time: ts}
	assistant := Entry{Type: "assistant", Role: "assistant", Time: ts}
	switch p.Type {
	case "message":
		var texts []Block
		for _, c := range p.Content {
			if (c.Type == "input_text" || c.Type == "output_text" || c.Type == "text") && strings.TrimSpace(c.Text) != "" {
				texts = append(texts, Block{Type: "text", Text: c.Text})
			}
		}
		if len(texts) == 0 {
			return Entry{}, false
		}
		switch p.Role {
		case "user":
			for i, b := range texts {
				texts[i].Text = codexShellCommand(b.Text)
			}
			user.Content, user.Meta = texts, codexInjected(texts)
			return user, true
		case "assistant":
			assistant.Content = texts
			return assistant, true
		}
		return Entry{}, false // developer and system messages: Codex's own instructions
	case "function_call", "custom_tool_call", "local_shell_call":
		assistant.Content = r.codexCalls(p)
		return assistant, len(assistant.Content) > 0
	case "function_call_output", "custom_tool_call_output":
		text, failed := codexOutput(p.Output)
		content, _ := json.Marshal(text)
		for _, id := range r.codexIDs(p.CallID) {
			user.Content = append(user.Content, Block{Type: "tool_result", ToolUseID: id, Content: content, IsError: failed})
		}
		return user, len(user.Content) > 0
	}
	return Entry{}, false // reasoning, web searches, and what is new
}

// codexCalls returns the tool_use blocks of a call: one, or for a patch
// one per file. The ids of a patch's blocks are kept until its output.
func (r *Reader) codexCalls(p codexLine) []Block {
	args := p.Arguments
	if p.Type == "custom_tool_call" {
		args = p.Input
	}
	switch {
	case p.Type == "local_shell_call" && p.Action != nil:
		return []Block{bashCall(p.CallID, shellCommand(p.Action.Command))}
	case p.Name == "shell" || p.Name == "container.exec" || p.Name == "shell_command":
		var in struct {
			Command json.RawMessage `json:"command"`
		}
		json.Unmarshal([]byte(args), &in)
		var argv []string
		if json.Unmarshal(in.Command, &argv) == nil {
			return []Block{bashCall(p.CallID, shellCommand(argv))}
		}
		var cmd string
		json.Unmarshal(in.Command, &cmd)
		return []Block{bashCall(p.CallID, cmd)}
	case p.Name == "exec_command":
		var in struct {
			Cmd string `json:"cmd"`
		}
		json.Unmarshal([]byte(args), &in)
		return []Block{bashCall(p.CallID, in.Cmd)}
	case p.Name == "apply_patch":
		patch := args
		var in struct {
			Input string `json:"input"`
		}
		if json.Unmarshal([]byte(args), &in) == nil && in.Input != "" {
			patch = in.Input
		}
		var blocks []Block
		var ids []string
		for i, f := range patchFiles(patch) {
			id := p.CallID
			if i > 0 {
				id += "/" + strconv.Itoa(i+1)
			}
			name := "Edit"
			if f.added {
				name = "Write"
			}
			input, _ := json.Marshal(map[string]string{"file_path": f.path})
			blocks = append(blocks, Block{Type: "tool_use", ID: id, Name: name, Input: input})
			ids = append(ids, id)
		}
		if len(blocks) > 0 {
			r.rememberCall(p.CallID, ids)
			return blocks
		}
	}
	input := json.RawMessage(args)
	if !json.Valid(input) {
		input, _ = json.Marshal(map[string]string{"input": args})
	}
	return []Block{{Type: "tool_use", ID: p.CallID, Name: p.Name, Input: input}}
}

func bashCall(id, command string) Block {
	input, _ := json.Marshal(map[string]string{"command": command})
	return Block{Type: "tool_use", ID: id, Name: "Bash", Input: input}
}

// shellCommand is the command an argv runs: the script of bash -lc SCRIPT,
// else the words joined.
func shellCommand(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") && strings.HasSuffix(argv[0], "sh") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

// rememberCall keeps the block ids of a call that made several, for its
// output; a bounded number of calls is kept.
func (r *Reader) rememberCall(callID string, ids []string) {
	if r.codexMulti == nil {
		r.codexMulti = make(map[string][]string)
	}
	if len(r.codexMulti) >= seenMessages {
		clear(r.codexMulti)
	}
	r.codexMulti[callID] = ids
}

// codexIDs returns the block ids an output answers.
func (r *Reader) codexIDs(callID string) []string {
	if ids, ok := r.codexMulti[callID]; ok {
		delete(r.codexMulti, callID)
		return ids
	}
	if callID == "" {
		return nil
	}
	return []string{callID}
}

// codexInjected reports whether a user message is one Codex writes itself:
// the environment context, the AGENTS.md instructions.
func codexInjected(texts []Block) bool {
	for _, b := range texts {
		s := strings.TrimSpace(b.Text)
		if !strings.HasPrefix(s, "<environment_context>") && !strings.HasPrefix(s, "<user_instructions>") &&
			!strings.HasPrefix(s, "# AGENTS.md instructions") {
			return false
		}
	}
	return true
}

// codexShellCommand rewrites the record Codex keeps of a command the
// person ran through its shell escape (!cmd) as Claude Code writes one:
// the command as <bash-input>, which [CleanPrompt] renders as "!cmd";
// its output, in <result> or <user_shell_command_output>, is left out,
// as Claude Code's <bash-stdout> is. The output is a file's or a
// program's text, not the person's words: counted as theirs, a planted
// "remember that" in a file they cat'ed would become an active memory.
// Other text is returned as it is.
func codexShellCommand(s string) string {
	const open, close = "<user_shell_command>", "</user_shell_command>"
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, open) {
		return s
	}
	body := strings.TrimPrefix(t, open)
	if i := strings.Index(body, close); i >= 0 {
		body = body[:i]
	}
	cmd := body
	if _, rest, ok := strings.Cut(body, "<command>"); ok {
		cmd, _, _ = strings.Cut(rest, "</command>")
	} else if i := strings.Index(body, "<result>"); i >= 0 {
		cmd = body[:i]
	}
	return "<bash-input>" + strings.TrimSpace(cmd) + "</bash-input>"
}

// codexOutput returns the text of a tool's output and whether it failed. An
// output is a string, or an object with a content string and a success
// flag; a string may hold JSON with the output and its exit code, or text
// that starts with the exit code.
func codexOutput(raw json.RawMessage) (text string, failed bool) {
	var obj struct {
		Content string `json:"content"`
		Success *bool  `json:"success"`
	}
	if json.Unmarshal(raw, &text) != nil {
		if json.Unmarshal(raw, &obj) != nil {
			return "", false
		}
		return obj.Content, obj.Success != nil && !*obj.Success
	}
	var wrapped struct {
		Output   *string `json:"output"`
		Metadata struct {
			ExitCode *int `json:"exit_code"`
		} `json:"metadata"`
	}
	if strings.HasPrefix(strings.TrimSpace(text), "{") && json.Unmarshal([]byte(text), &wrapped) == nil && wrapped.Output != nil {
		return *wrapped.Output, wrapped.Metadata.ExitCode != nil && *wrapped.Metadata.ExitCode != 0
	}
	if code, ok := exitCode(text); ok {
		return codexBody(text, code), code != 0
	}
	return text, false
}

// codexBody rewrites the text form of a command's output ("Exit code: 1"
// or "Process exited with code 1", "Wall time: …", "Output:", then the
// output) as Claude Code words it: the
// output alone, led by "Exit code N" when the command failed.
func codexBody(text string, code int) string {
	head := text[:min(len(text), 300)]
	i := strings.Index(head, "Output:\n")
	if i < 0 || strings.TrimSpace(head[:i]) == "" {
		return text
	}
	body := text[i+len("Output:\n"):]
	if code != 0 {
		body = "Exit code " + strconv.Itoa(code) + "\n" + body
	}
	return body
}

// exitCodeLines are how the text form of a command's output states its
// exit code, on a line of its own: "Exit code: 1" (shell), "Process exited
// with code 1" (exec_command, Codex 0.171).
var exitCodeLines = []string{"Exit code: ", "Process exited with code "}

// exitCode reads the exit code at the head of the text form of a
// command's output.
func exitCode(s string) (int, bool) {
	for line := range strings.Lines(s[:min(len(s), 300)]) {
		for _, p := range exitCodeLines {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), p); ok {
				n, err := strconv.Atoi(v)
				return n, err == nil
			}
		}
	}
	return 0, false
}

// A patchFile is a file a patch touches.
type patchFile struct {
	path  string
	added bool
}

// patchFiles returns the files an apply_patch patch names, in order:
// "*** Add File: p", "*** Update File: p" (and its "*** Move to: q"),
// "*** Delete File: p".
func patchFiles(patch string) []patchFile {
	var out []patchFile
	for line := range strings.Lines(patch) {
		line = strings.TrimSpace(line)
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok && p != "" {
				out = append(out, patchFile{path: p, added: h == "*** Add File: "})
			}
		}
	}
	return out
}
