package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// synthCounts says what a synthetic transcript holds.
type synthCounts struct {
	lines, entries, calls, turns int
}

// writeSynthetic writes a synthetic transcript of at least size bytes to a
// new file in a temporary folder and returns its path. Its shape follows
// the real ones: per turn a prompt (sometimes with injected context), hook
// progress lines, a thinking line, prose, one to six tool calls with their
// results (file contents, command output, one error in ten, one huge output
// in fifty) and a file-history snapshot.
func writeSynthetic(tb testing.TB, size int64) (string, synthCounts) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "synthetic.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g := &synth{r: rand.New(rand.NewPCG(1, 2)), w: w}
	for g.written < size {
		g.turn()
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, g.counts
}

type synth struct {
	r       *rand.Rand
	w       *bufio.Writer
	written int64
	counts  synthCounts
	seq     int
}

var synthWords = strings.Fields(`the cart total coupon applied twice handler request response cache retry
index schema token session worker queue migration config logging metrics tracing router middleware
storage bucket upload release build test lint vet module import package interface struct error
context timeout deadline goroutine channel mutex file read write parse render digest transcript`)

func (g *synth) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(synthWords[g.r.IntN(len(synthWords))])
	}
	return b.String()
}

func (g *synth) code(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "%6d\u2192\tif err := %s(ctx, %q); err != nil { return err }\n", i+1, "do"+g.words(1), g.words(3))
	}
	return b.String()
}

func (g *synth) emit(v map[string]any, conversational bool) {
	g.seq++
	v["uuid"] = fmt.Sprintf("uuid-%d", g.seq)
	v["sessionId"] = "synthetic-session"
	v["cwd"] = "/home/dev/shop"
	v["version"] = "2.1.39"
	v["gitBranch"] = "main"
	v["timestamp"] = fmt.Sprintf("2026-11-30T%02d:%02d:%02d.000Z", 10+g.seq/3600%10, g.seq/60%60, g.seq%60)
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	b = append(b, '\n')
	g.w.Write(b)
	g.written += int64(len(b))
	g.counts.lines++
	if conversational {
		g.counts.entries++
	}
}

func (g *synth) assistant(id string, block map[string]any) {
	g.emit(map[string]any{"type": "assistant", "requestId": "req_" + id, "message": map[string]any{
		"id": "msg_" + id, "role": "assistant", "model": "claude-opus-4-6", "content": []any{block},
		"usage": map[string]any{"input_tokens": 3, "output_tokens": 200},
	}}, true)
}

func (g *synth) turn() {
	g.counts.turns++
	prompt := g.words(20 + g.r.IntN(80))
	if g.r.IntN(3) == 0 {
		prompt += "\n<system-reminder>\n" + g.words(100) + "\n</system-reminder>"
	}
	g.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}}, true)
	for range 1 + g.r.IntN(3) {
		g.emit(map[string]any{"type": "progress", "data": map[string]any{"type": "hook_progress", "hookEvent": "UserPromptSubmit", "command": "hook.sh " + g.words(5)}}, false)
	}
	id := fmt.Sprint(g.seq)
	g.assistant(id, map[string]any{"type": "thinking", "thinking": g.words(50 + g.r.IntN(300)), "signature": strings.Repeat("c2ln", 100)})
	g.assistant(id, map[string]any{"type": "text", "text": g.words(20 + g.r.IntN(60))})
	for range 1 + g.r.IntN(6) {
		g.call(id)
	}
	g.emit(map[string]any{"type": "file-history-snapshot", "messageId": id, "snapshot": map[string]any{"trackedFileBackups": map[string]any{"a.go": map[string]any{"version": 1}}}}, false)
}

func (g *synth) call(msgID string) {
	g.counts.calls++
	tid := fmt.Sprintf("toolu_%d", g.seq)
	name, input, output := "Read", map[string]any{"file_path": "/home/dev/shop/internal/" + g.words(1) + ".go"}, g.code(40+g.r.IntN(400))
	switch g.r.IntN(4) {
	case 1:
		name, input, output = "Bash", map[string]any{"command": "go test ./internal/" + g.words(1) + "/..."}, g.words(50+g.r.IntN(800))
	case 2:
		name, input, output = "Edit", map[string]any{"file_path": "/home/dev/shop/internal/" + g.words(1) + ".go", "old_string": g.code(5), "new_string": g.code(8)}, "The file has been updated."
	case 3:
		name, input, output = "Grep", map[string]any{"pattern": g.words(2)}, g.words(30)
	}
	if g.r.IntN(50) == 0 {
		output = strings.Repeat(g.code(20), 150) // a huge output
	}
	isError := g.r.IntN(10) == 0
	g.assistant(msgID, map[string]any{"type": "tool_use", "id": tid, "name": name, "input": input})
	g.emit(map[string]any{"type": "progress", "data": map[string]any{"type": "hook_progress", "hookEvent": "PreToolUse"}, "toolUseID": tid}, false)
	g.emit(map[string]any{"type": "user", "toolUseResult": map[string]any{"stdout": output[:min(len(output), 2000)], "stderr": "", "interrupted": false},
		"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": isError}}}}, true)
}

// realBased returns a transcript of at least size bytes made of copies of
// the largest real transcript, each with its ids renamed so that copies do
// not de-duplicate one another.
func realBased(tb testing.TB, size int64) string {
	tb.Helper()
	src, err := os.ReadFile(realTranscript(tb, "ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "real-based.jsonl")
	var out strings.Builder
	for i := 0; int64(out.Len()) < size; i++ {
		rename := strings.NewReplacer(
			`"msg_`, fmt.Sprintf(`"msg_%d_`, i),
			`toolu_`, fmt.Sprintf(`toolu%d_`, i),
			`"req_`, fmt.Sprintf(`"req_%d_`, i),
		)
		out.WriteString(rename.Replace(string(src)))
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
