package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The transcript formats each get a target of their own, which keeps the
// format's first line fixed so that the fuzzer spends its time in that
// format's line decoder: FuzzReader mixes them all.

// codexMeta is the first line of a Codex CLI rollout.
const codexMeta = `{"timestamp":"2026-11-28T09:00:00.000Z","type":"session_meta","payload":{"id":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","cwd":"/home/dev/shop","originator":"codex_cli_rs","cli_version":"0.171.0"}}` + "\n"

// geminiMeta is the first line of a Gemini CLI record log.
const geminiMeta = `{"sessionId":"9241daf7-48d3-4009-9f26-fdffdd945df3","projectHash":"3d9d","startTime":"2026-12-01T11:50:47.995Z","kind":"main"}` + "\n"

// claudeLine is a first line of a Claude Code transcript.
const claudeLine = `{"type":"user","sessionId":"s","timestamp":"2026-11-30T10:00:00Z","message":{"role":"user","content":"hello"}}` + "\n"

// FuzzCodexRollout reads arbitrary lines after a rollout's session_meta:
// the reader's properties hold (FuzzReader), and the session is read as
// Codex's whatever follows.
func FuzzCodexRollout(f *testing.F) {
	addLines(f, "codex.jsonl", codexMeta)
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"make\"]}","call_id":"c"}}` + "\n" +
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"{\"output\":\"x\",\"metadata\":{\"exit_code\":2}}"}}` + "\n"))
	f.Add([]byte(`{"type":"event_msg","payload":{"type":"user_message","message":"` + "caf\xe9" + `"}}` + "\n"))
	f.Fuzz(func(t *testing.T, lines []byte) {
		checkReader(t, append([]byte(codexMeta), lines...))
	})
}

// FuzzGeminiLog reads arbitrary records after a Gemini record log's first
// line: $set, $rewindTo and messages in any order.
func FuzzGeminiLog(f *testing.F) {
	addLines(f, "gemini-log.jsonl", geminiMeta)
	f.Add([]byte(`{"$rewindTo":"nope"}` + "\n" + `{"$set":{"messages":[]}}` + "\n" + `{"id":"a","type":"user","content":[{"text":"hi"}]}` + "\n"))
	f.Add([]byte(`{"id":"a","type":"gemini","content":"x","toolCalls":[{"id":"t","name":"run_shell_command","args":{"command":"make"},"status":"error","resultDisplay":7}]}` + "\n"))
	f.Fuzz(func(t *testing.T, lines []byte) {
		checkReader(t, append([]byte(geminiMeta), lines...))
	})
}

// FuzzClaudeLines reads arbitrary lines after a Claude Code transcript's
// first line.
func FuzzClaudeLines(f *testing.F) {
	addLines(f, "compaction.jsonl", claudeLine)
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"thinking","thinking":"x"},{"type":"text","text":"<private>k</private>"}]}}` + "\n"))
	f.Fuzz(func(t *testing.T, lines []byte) {
		checkReader(t, append([]byte(claudeLine), lines...))
	})
}

// addLines seeds f with the lines of a test transcript after its first
// (which the target supplies as first), whole and cut in half.
func addLines(f *testing.F, name, first string) {
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		f.Fatal(err)
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[i+1:]
	}
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte(first)) // the first line again
}
