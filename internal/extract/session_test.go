package extract

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// A session script is a compact way to write a Claude Code transcript for
// tests. Header lines come first, then "---", then events; a line that
// starts with two spaces continues the text of the line before it.
//
//	fact: convention | pnpm; web/        a planted fact: its category, then the words a candidate must contain
//	cwd: /home/dev/shop
//	branch: main
//	---
//	user: Don't use npm here.
//	assistant: Understood.
//	tool: Bash cd web && npm install => error: npm ERR! code EUSAGE
//	tool: Edit web/src/App.tsx => ok
//
// A tool line is "tool: NAME ARG => ok" or "=> ok: output" or
// "=> error: message". For Read, Write and Edit the argument is a path
// relative to cwd; for Bash a command (Bash& runs it in the background);
// for other tools the input JSON.
type script struct {
	facts  []plantedFact
	cwd    string
	branch string
	events []event
}

// A plantedFact is what a session states and an extractor should find.
type plantedFact struct {
	category string
	words    []string // all must appear in a candidate's description or fact, case folded
}

type event struct {
	kind string // user, assistant, tool
	text string // user and assistant text; tool: "NAME ARG => outcome"
}

func parseScript(src string) (script, error) {
	var s script
	head, body, ok := strings.Cut(src, "\n---\n")
	if !ok {
		return s, fmt.Errorf("no --- line")
	}
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, ": ")
		switch k {
		case "fact":
			cat, words, _ := strings.Cut(v, " | ")
			f := plantedFact{category: strings.TrimSpace(cat)}
			for _, w := range strings.Split(words, ";") {
				f.words = append(f.words, strings.ToLower(strings.TrimSpace(w)))
			}
			s.facts = append(s.facts, f)
		case "cwd":
			s.cwd = v
		case "branch":
			s.branch = v
		case "", "#":
		default:
			if !strings.HasPrefix(line, "#") {
				return s, fmt.Errorf("unknown header line %q", line)
			}
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if rest, ok := strings.CutPrefix(line, "  "); ok && len(s.events) > 0 {
			s.events[len(s.events)-1].text += "\n" + rest
			continue
		}
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok || (k != "user" && k != "assistant" && k != "tool") {
			return s, fmt.Errorf("bad event line %q", line)
		}
		s.events = append(s.events, event{k, v})
	}
	return s, nil
}

// jsonl renders the script as Claude Code writes a transcript: one line
// per user prompt, assistant message, tool use and tool result.
func (s script) jsonl(sessionID string) (string, error) {
	var b strings.Builder
	ts := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	n := 0
	parent := ""
	line := func(typ string, msg any, extra map[string]any) {
		n++
		uuid := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		m := map[string]any{
			"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": s.cwd, "sessionId": sessionID,
			"version": "2.1.332", "gitBranch": s.branch, "uuid": uuid, "timestamp": ts.Format(time.RFC3339Nano),
			"type": typ, "message": msg,
		}
		if parent != "" {
			m["parentUuid"] = parent
		}
		for k, v := range extra {
			m[k] = v
		}
		data, _ := json.Marshal(m)
		b.Write(data)
		b.WriteByte('\n')
		parent = uuid
		ts = ts.Add(7 * time.Second)
	}
	for i, e := range s.events {
		switch e.kind {
		case "user":
			line("user", map[string]any{"role": "user", "content": e.text}, nil)
		case "assistant":
			line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", i), "type": "message", "role": "assistant", "model": "claude-sonnet-5",
				"content": []any{map[string]any{"type": "text", "text": e.text}}, "stop_reason": "end_turn"},
				map[string]any{"requestId": fmt.Sprintf("req_%d", i)})
		case "tool":
			name, input, outcome, isErr, err := s.toolCall(e.text)
			if err != nil {
				return "", err
			}
			id := fmt.Sprintf("toolu_%03d", i)
			line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", i), "type": "message", "role": "assistant", "model": "claude-sonnet-5",
				"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}, "stop_reason": "tool_use"},
				map[string]any{"requestId": fmt.Sprintf("req_%d", i)})
			// What Claude Code records beside an error: the error again and,
			// for the person's rejection, the kind of denial.
			var rec map[string]any
			if isErr {
				rec = map[string]any{"toolUseResult": "Error: " + outcome}
				if strings.HasPrefix(outcome, "The user doesn't want to proceed") {
					rec["toolDenialKind"] = "user-rejected"
				}
			}
			line("user", map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "tool_result", "tool_use_id": id, "content": outcome, "is_error": isErr}}}, rec)
		}
	}
	return b.String(), nil
}

func (s script) toolCall(text string) (name string, input map[string]any, outcome string, isErr bool, err error) {
	call, result, ok := strings.Cut(text, " => ")
	if !ok {
		return "", nil, "", false, fmt.Errorf("tool line %q has no =>", text)
	}
	name, arg, _ := strings.Cut(call, " ")
	switch name {
	case "Bash":
		input = map[string]any{"command": arg, "description": "run"}
	case "Bash&": // a command run in the background
		name, input = "Bash", map[string]any{"command": arg, "description": "run", "run_in_background": true}
	case "Read", "Write", "Edit":
		input = map[string]any{"file_path": s.cwd + "/" + arg}
		if name != "Read" {
			input["old_string"], input["new_string"], input["content"] = "a", "b", "c"
		}
	default:
		if err := json.Unmarshal([]byte(arg), &input); err != nil {
			return "", nil, "", false, fmt.Errorf("tool %s input: %w", name, err)
		}
	}
	switch {
	case result == "ok":
		outcome = "done"
	case strings.HasPrefix(result, "ok: "):
		outcome = strings.TrimPrefix(result, "ok: ")
	case strings.HasPrefix(result, "error: "):
		outcome, isErr = strings.TrimPrefix(result, "error: "), true
	default:
		return "", nil, "", false, fmt.Errorf("tool outcome %q is not ok, ok: … or error: …", result)
	}
	return name, input, outcome, isErr, nil
}

// testScript is a short session used by the provider tests.
const testScript = `cwd: /home/dev/shop
branch: main
---
user: Add a price filter to the product list in web/.
tool: Bash cd web && npm install rc-slider => error: npm ERR! This project uses pnpm-lock.yaml
user: Don't use npm here. We use pnpm in web/, always. Remember that. My key is sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWx-AAAAAA
tool: Bash cd web && pnpm add rc-slider => ok
tool: Edit web/src/ProductList.tsx => ok
assistant: Done with pnpm. TODO: the filter does not persist in the URL yet.
`

// scriptDigest builds the digest of a session script, with cwd replaced
// when one is given. The digest is not redacted, so that tests see the
// extractor redact at its own boundary.
func scriptDigest(t testing.TB, src, cwd string) *transcript.Digest {
	t.Helper()
	s, err := parseScript(src)
	if err != nil {
		t.Fatal(err)
	}
	if cwd != "" {
		s.cwd = cwd
	}
	data, err := s.jsonl("5e55-10n")
	if err != nil {
		t.Fatal(err)
	}
	return digestString(t, data)
}
