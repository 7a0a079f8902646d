package transcript

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Gemini CLI 0.61 writes a session as a record log instead
// (chats/session-<time>-<id>.jsonl), appended to, never rewritten: a
// header {"sessionId", "projectHash", "startTime", "lastUpdated", "kind"},
// then records. A message record (one with an "id") is upserted by id (a
// model message is written first without, then with its toolCalls);
// {"$set": {...}} sets metadata, and $set.messages replaces the whole list
// (at the start, and on resume, where history is rewritten);
// {"$rewindTo": id} drops that message and the ones after it. A resumed
// session appends to its original file, first a $set.messages of the
// history as the CLI rebuilt it: the messages it had, in another shape,
// some left out (0.61 drops the first prompt). A $set.messages that
// starts where the log starts is such a rewrite, and the messages stay as
// they were recorded: so a resumed session reads as the one before
// it plus what is new, and an offset taken before the resume still points
// at the end of what was read. Folded, the log is the same session as the
// JSON document, and is read the same way: offsets count messages.
//
// A sub-agent's session is a log of its own, chats/<parent id>/<id>.jsonl,
// whose header has "kind": "subagent"; its entries are read as a
// sub-agent's (see [SubagentFiles]).

// looksGeminiLog reports whether a first line is a record log's header.
func looksGeminiLog(first []byte) bool {
	return bytes.HasPrefix(first, []byte("{")) && bytes.Contains(first, []byte(`"sessionId"`)) &&
		bytes.Contains(first, []byte(`"projectHash"`)) && !bytes.Contains(first, []byte(`"messages"`)) && json.Valid(first)
}

// foldGeminiLog folds a record log into the session it describes. Lines
// that are not records it knows (a partly written last line, kinds added
// later) are stepped over.
func foldGeminiLog(data []byte) geminiSession {
	var s geminiSession
	at := map[string]int{} // message id → index in s.Messages
	reindex := func() {
		clear(at)
		for i, m := range s.Messages {
			if m.ID != "" {
				at[m.ID] = i
			}
		}
	}
	for line := range bytes.Lines(data) {
		var rec struct {
			SessionID string `json:"sessionId"`
			Kind      string `json:"kind"`
			ID        string `json:"id"`
			Set       *struct {
				Messages *[]geminiMessage `json:"messages"`
			} `json:"$set"`
			RewindTo *string `json:"$rewindTo"`
		}
		if json.Unmarshal(line, &rec) != nil {
			continue
		}
		switch {
		case rec.Set != nil:
			if m := rec.Set.Messages; m != nil && !rewritten(*m, s.Messages) {
				s.Messages = *m
				reindex()
			}
		case rec.RewindTo != nil:
			if i, ok := at[*rec.RewindTo]; ok {
				s.Messages = s.Messages[:i]
				reindex()
			}
		case rec.ID != "":
			var m geminiMessage
			if json.Unmarshal(line, &m) != nil {
				continue
			}
			if i, ok := at[m.ID]; ok {
				s.Messages[i] = m
			} else {
				at[m.ID] = len(s.Messages)
				s.Messages = append(s.Messages, m)
			}
		case rec.SessionID != "":
			s.SessionID = rec.SessionID
			setFirst(&s.Kind, rec.Kind)
		}
	}
	return s
}

// rewritten reports whether a $set.messages list is the log's history
// rebuilt (on resume): a list that starts with the message the log
// starts with (the <session_context> block, whose id is the same in every
// session). Its other messages are the same ones in another shape (a
// function's response split off as "<id>_response"), some left out.
func rewritten(list, cur []geminiMessage) bool {
	return len(list) > 0 && len(cur) > 0 && list[0].ID != "" && list[0].ID == cur[0].ID
}

// hookContext is a hook's context as Gemini CLI puts it into the user's
// message: wrapped, its own angle brackets escaped.
var hookContext = lazyregexp.New(`(?s)<hook_context>.*?</hook_context>\s*`)

// WithoutHookContext returns a prompt without the context hooks added to
// it: Gemini CLI puts SessionStart's in front of the first prompt, in the
// session file and in what it hands BeforeAgent as the prompt.
func WithoutHookContext(s string) string {
	if !strings.Contains(s, "<hook_context>") {
		return s
	}
	return hookContext.ReplaceAllString(s, "")
}

// loadedContext is the block of instructions (the MCP servers', the
// project's GEMINI.md) Gemini CLI puts in front of a sub-agent's task.
var loadedContext = lazyregexp.New(`(?s)<loaded_context>.*?</loaded_context>\s*`)

// geminiUserText is the part of a user message's text the person (or, in
// a sub-agent's session, the agent that started it) wrote: without the
// context hooks added and the instructions loaded; "" for the
// <session_context> block Gemini CLI sends first (the environment, the
// folder listing, MCP server instructions).
func geminiUserText(text string) string {
	text = WithoutAdded(text)
	text = loadedContext.ReplaceAllString(text, "")
	if strings.HasPrefix(strings.TrimSpace(text), "<session_context>") {
		return ""
	}
	return geminiShellCommand(text)
}

// WithoutAdded returns a Gemini CLI prompt without what the CLI added to
// what the person typed: the context hooks gave ([WithoutHookContext])
// and the content of the files the prompt names with @.
func WithoutAdded(s string) string {
	return referencedFiles.ReplaceAllString(WithoutHookContext(s), "")
}

// referencedFiles is what Gemini CLI appends to a prompt that names files
// (or MCP resources) with @: their content, between its markers. The
// content is the files', not the person's words; the prompt keeps the
// @path it named.
var referencedFiles = lazyregexp.New(`(?s)\n?--- Content from referenced files ---.*?(?:--- End of content ---|$)`)

// geminiShellRecord is the record Gemini CLI's shell mode keeps of a
// command the person ran: the command, then its output, in one user
// message.
var geminiShellRecord = lazyregexp.New("(?s)^\\s*I ran the following shell command:\\n```(?:sh)?\\n(.*?)\\n```\\s*(?:\\n\\s*This produced the following result:.*)?$")

// geminiShellCommand rewrites Gemini CLI's record of a shell-mode command
// as Claude Code writes one: the command as <bash-input>, which
// [CleanPrompt] renders as "!cmd"; its output is left out, as Claude
// Code's <bash-stdout> is. The output is a file's or a program's text,
// not the person's words. Other text is returned as it is.
func geminiShellCommand(text string) string {
	m := geminiShellRecord.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	return "<bash-input>" + strings.TrimSpace(m[1]) + "</bash-input>"
}

// untrusted unwraps tool output Gemini CLI marks as untrusted.
func untrusted(s string) string {
	t := strings.TrimSpace(s)
	if in, ok := strings.CutPrefix(t, "<untrusted_context>"); ok {
		if in, ok := strings.CutSuffix(in, "</untrusted_context>"); ok {
			return strings.TrimPrefix(in, "\n")
		}
	}
	return s
}
