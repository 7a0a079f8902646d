package transcript

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReader decodes arbitrary bytes as a transcript: the Reader never
// panics, entry offsets are increasing line ends inside the data, the
// offset reached never passes the data and stops only before an unfinished
// line; the digest of whatever was read renders and chunks without panic.
func FuzzReader(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "compaction.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	evidence, err := filepath.Glob(filepath.Join("testdata", "evidence", "*.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range evidence { // pipes, error shapes, rejections, answers, sub-agents, titles
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	codex, err := os.ReadFile(filepath.Join("testdata", "codex.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(codex)
	gemini, err := os.ReadFile(filepath.Join("testdata", "gemini.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(gemini)
	f.Add(gemini[:len(gemini)/3])
	geminiLog, err := os.ReadFile(filepath.Join("testdata", "gemini-log.jsonl")) // the record log of Gemini CLI 0.61
	if err != nil {
		f.Fatal(err)
	}
	f.Add(geminiLog)
	f.Add(geminiLog[:len(geminiLog)/2])
	for _, p := range []string{geminiOrig, geminiSubagent} { // resumed; a sub-agent's
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"sessionId":"s","projectHash":"h"}` + "\n" + `{"$rewindTo":"x"}` + "\n" + `{"$set":{"messages":[{"id":"x"}]}}` + "\n" + `{"$rewindTo":"x"}` + "\n" + `{"id":"x","type":"user","content":"<hook_context>a"}`))
	f.Add([]byte(`{"sessionId":"s","projectHash":"h","messages":[{"type":"gemini","content":[{"text":"a"}],"toolCalls":[{"id":"t","name":"replace","args":3,"status":"error","result":[{"functionResponse":{"response":{"error":{"x":1}}}}]}]}]}`))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","call_id":"c","input":"*** Add File: "}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":{"content":1}}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":7}"}}`))
	// What the person's shell escape and @files bring into a user message.
	f.Add([]byte(`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_shell_command>\n<command>\ncat a.md\n</command>\n<result>\nOutput:\nx\n</result>\n</user_shell_command>"}]}}` + "\n" +
		`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_shell_command>\nls\n</user_shell_command>\n<user_shell_command_output>\nx\n</user_shell_command_output>"}]}}`))
	f.Add([]byte(`{"sessionId":"s","projectHash":"h","messages":[{"id":"1","type":"user","content":[{"text":"I ran the following shell command:\n` + "```sh" + `\ncat a\n` + "```" + `\n\nThis produced the following result:\n` + "```" + `\nx\n` + "```" + `"}]},` +
		`{"id":"2","type":"user","content":"read @a.md\n--- Content from referenced files ---\nContent from @a.md:\nx\n--- End of content ---"}]}`))
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":\"caf\xe9\"}}\n\n[1]\n{\"type\":\"assistant\""))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":1}}]}}` + "\n" +
		`{"type":"user","toolUseResult":"Error: x","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":[{"type":"image"}]}]}}` + "\n"))
	f.Add([]byte(`{"type":"system","subtype":"compact_boundary","compactMetadata":"x"}` + "\n" + `{"type":"user","isCompactSummary":true,"isSidechain":true,"message":{"content":"s"}}`))
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"AskUserQuestion","input":{}}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"User has answered your questions: \"Q?\"=\"A\", \"R\"=\"\"."},{"type":"text","text":"run curl x | sh"}]}}` + "\n"))
	f.Fuzz(checkReader)
}

// checkReader is FuzzReader's property, for any format.
func checkReader(t *testing.T, data []byte) {
	r := NewReader(bytes.NewReader(data), 0)
	b := NewBuilder(Options{MaxPrompt: 50, MaxProse: 50, MaxResult: 50, MaxSummary: 50})
	if r.gemini {
		fuzzGemini(t, r, b)
		return
	}
	prev := int64(0)
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		if e.Offset < prev || e.End <= e.Offset || e.End > int64(len(data)) {
			t.Fatalf("entry at [%d, %d) after %d in %d bytes", e.Offset, e.End, prev, len(data))
		}
		prev = e.End
		b.Add(e)
	}
	off := r.Offset()
	if off < prev || off > int64(len(data)) {
		t.Fatalf("Offset() = %d, last entry ends at %d, data has %d bytes", off, prev, len(data))
	}
	if off > 0 && off < int64(len(data)) && data[off-1] != '\n' {
		t.Fatalf("Offset() = %d is not after a newline", off)
	}
	if rest := int64(len(data)) - off; rest != r.Stats().Pending {
		t.Fatalf("%d bytes after Offset(), Pending = %d", rest, r.Stats().Pending)
	}
	if rest := data[off:]; bytes.IndexByte(rest, '\n') >= 0 {
		t.Fatalf("Offset() = %d stops before a complete line", off)
	}
	d := b.Digest()
	_ = d.String()
	_ = d.Chunks(100)
	for _, text := range d.Said() {
		if strings.TrimSpace(text) == "" {
			t.Fatalf("Said yields an empty statement")
		}
	}
	_, _ = Build(context.Background(), NewReader(bytes.NewReader(data), 0), Options{})
}

// fuzzGemini checks a Reader of a Gemini session document, whose offsets
// count messages: the entries of one message share its range.
func fuzzGemini(t *testing.T, r *Reader, b *Builder) {
	var last Entry
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return // too large: an error, not a panic
		}
		if e.End != e.Offset+1 || e.Offset < last.Offset {
			t.Fatalf("entry of messages [%d, %d) after [%d, %d)", e.Offset, e.End, last.Offset, last.End)
		}
		last = e
		b.Add(e)
	}
	if r.Offset() < last.End || r.Stats().Pending != 0 {
		t.Fatalf("Offset() = %d after an entry ending at message %d; Pending %d", r.Offset(), last.End, r.Stats().Pending)
	}
	d := b.Digest()
	_ = d.String()
	_ = d.Chunks(100)
}

// FuzzExcerpt weighs arbitrary output: an excerpt never panics, holds at
// most the lines asked for, each cut to width and taken from the output;
// the answers and rejection readers never panic.
func FuzzExcerpt(f *testing.F) {
	f.Add("Exit code 2\nTotal errors: 3\nlib/a.ex:57:pattern_match\nThe pattern can never match the type.\ndone")
	f.Add("npm warn x\n> Build error occurred\n[TypeError: generate is not a function]")
	f.Add(`Error: Command failed\nsrc/a.ts(3,7): error TS2322: Type \"x\".\n    at f (a.js:1:2)`)
	f.Add("\x1b[31m\u2503 [F] too complex (is 13, max is 9)\x1b[0m\n\u2503  lib/p.ex:88:7")
	f.Add(`User has answered your questions: "a"="b", "c"="d". You can now continue.`)
	f.Add("The user doesn't want to proceed with this tool use. To tell you how to proceed, the user said:\nno\n\nNote: x")
	f.Fuzz(func(t *testing.T, s string) {
		lines := outputLines(s)
		got := excerptError(s, 4, 80)
		if got == "" {
			return
		}
		kept := strings.Split(got, "\n")
		if len(kept) > 4 {
			t.Fatalf("excerpt has %d lines, want at most 4", len(kept))
		}
		for _, k := range kept {
			if utf8.RuneCountInString(k) > 84 {
				t.Fatalf("excerpt line %q is over the width", k)
			}
			if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, strings.TrimSuffix(k, " ...")) }) {
				t.Fatalf("excerpt line %q is not a line of the output", k)
			}
		}
		_ = headline(got)
		_ = parseAnswers(s)
		_, _ = rejection(s)
		_ = cutSections(s, 50)
	})
}

// FuzzCommand splits arbitrary command lines: no stage has an empty word,
// and a status is named only for a check command.
func FuzzCommand(f *testing.F) {
	for _, c := range []string{"cd web && npm run build 2>&1 | tail -20", "set -o pipefail; go test ./... | tee log",
		`echo "a | b" && make test || true`, "cargo test --quiet; echo $?", `x='unterminated | y`, "a\\|b"} {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		for _, s := range shellStages(cmd) {
			if slices.Contains(s.words, "") {
				t.Fatalf("shellStages(%q) has an empty word: %q", cmd, s.words)
			}
		}
		if c := checkCommand(cmd); c.statusOf != "" && !c.check {
			t.Fatalf("checkCommand(%q) = %+v: a status without a check", cmd, c)
		}
	})
}

// FuzzPrintable: what Printable returns holds no control character (but
// newline and tab), no escape and no bidi override, is valid UTF-8, and
// is its input when that needed no cleaning.
func FuzzPrintable(f *testing.F) {
	f.Add("> tsc\n\x1b]52;c;bHM=\x07\x1b[2Jsrc/db.ts(4,10): error\x1b]0;t\x1b\\ \u009b31m\u202eevil\u202c\x08 ok\tdone")
	f.Add("\x1b]8;;https://x.evil\x07link\x1b]8;;\x07 and \x1bP+q\x1b\\ and \x1b")
	f.Add("plain text, ünïcode, 日本語")
	f.Add("a\x1b\nb\x1b[31\nc\x1b]0;t\nd\u009b2\ne\xe6\nf")
	f.Fuzz(func(t *testing.T, s string) {
		got := Printable(s)
		for _, r := range got {
			if r == 0x1b || !keep(r) {
				t.Fatalf("Printable(%q) = %q holds %U", s, got, r)
			}
		}
		if !utf8.ValidString(got) {
			t.Fatalf("Printable(%q) = %q is not valid UTF-8", s, got)
		}
		if !needsCleaning(s) && got != s {
			t.Fatalf("Printable(%q) = %q changed text that needed no cleaning", s, got)
		}
		// A digest is cleaned a part at a time (turnParts): line by line
		// must be the same as whole.
		var lines strings.Builder
		for line := range strings.SplitAfterSeq(s, "\n") {
			lines.WriteString(Printable(line))
		}
		if lines.String() != got {
			t.Fatalf("Printable(%q) = %q, but line by line %q", s, got, lines.String())
		}
	})
}
