package longsession

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Size bounds a session: it ends at the end of the turn that reaches
// Prompts prompts or Bytes bytes, whichever is set and comes first.
type Size struct {
	Prompts int
	Bytes   int64
}

func (s Size) reached(prompts int, written int64) bool {
	return s.Prompts > 0 && prompts >= s.Prompts || s.Bytes > 0 && written >= s.Bytes
}

// Write writes a session of size s to w, one JSON line an entry, and
// returns how many prompts it holds.
func Write(w io.Writer, s Size) (int, error) {
	if s.Prompts <= 0 && s.Bytes <= 0 {
		return 0, fmt.Errorf("longsession: write: no size given")
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	g := &gen{r: rand.New(rand.NewPCG(5, 6)), w: bw}
	for !s.reached(g.prompts, g.written) && g.err == nil {
		g.turn()
	}
	if g.err != nil {
		return g.prompts, fmt.Errorf("longsession: write: %w", g.err)
	}
	if err := bw.Flush(); err != nil {
		return g.prompts, fmt.Errorf("longsession: write: %w", err)
	}
	return g.prompts, nil
}

type gen struct {
	r       *rand.Rand
	w       *bufio.Writer
	written int64
	prompts int
	seq     int
	err     error
}

var words = strings.Fields(`the cart total coupon applied twice handler request response cache retry
index schema token session worker queue migration config logging metrics tracing router middleware
storage bucket upload release build test lint vet module import package interface struct error
context timeout deadline goroutine channel mutex file read write parse render digest transcript`)

// said are what a person says now and then that the heuristic extractor
// takes for a fact; %d makes each one different.
var said = []string{
	"We always use pnpm in web/app%d, never npm.",
	"Remember that the staging database for shard %d is read-only.",
	"Don't mock the database in internal/store%d tests; we use a real SQLite file.",
	"We decided to keep the queue in SQLite for service %d because it has to survive restarts.",
	"I prefer short commit messages for the %d series, please.",
	"No, that's wrong: the coupon handler %d must run before the total is computed.",
	"The build of internal/cart/cart%d.go is broken since yesterday, the checkout test fails.",
	"From now on run go vet before every commit of module %d.",
}

func (g *gen) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[g.r.IntN(len(words))])
	}
	return b.String()
}

func (g *gen) code(lines int) string {
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "%6d\u2192\tif err := %s(ctx, %q); err != nil { return err }\n", i+1, "do"+g.text(1), g.text(3))
	}
	return b.String()
}

func (g *gen) emit(v map[string]any) {
	g.seq++
	v["uuid"] = fmt.Sprintf("uuid-%d", g.seq)
	v["sessionId"] = "long-session"
	v["cwd"] = "/home/dev/shop-not-here"
	v["version"] = "2.1.39"
	v["gitBranch"] = "main"
	v["timestamp"] = fmt.Sprintf("2026-11-30T%02d:%02d:%02d.000Z", 10+g.seq/3600%10, g.seq/60%60, g.seq%60)
	b, err := json.Marshal(v)
	if err != nil {
		g.err = err
		return
	}
	n, err := g.w.Write(append(b, '\n'))
	g.written += int64(n)
	if err != nil {
		g.err = err
	}
}

func (g *gen) user(content any) {
	g.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": content}})
}

func (g *gen) assistant(id string, block map[string]any) {
	g.emit(map[string]any{"type": "assistant", "requestId": "req_" + id, "message": map[string]any{
		"id": "msg_" + id, "role": "assistant", "model": "claude-opus-4-6", "content": []any{block},
		"usage": map[string]any{"input_tokens": 3, "output_tokens": 200},
	}})
}

func (g *gen) result(id, tid, name string, input map[string]any, output string, isErr bool) {
	g.assistant(id, map[string]any{"type": "tool_use", "id": tid, "name": name, "input": input})
	g.user([]any{map[string]any{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": isErr}})
}

// turn writes a prompt, the assistant's answer and, every fourth turn, a
// tool call with a large output or a command that fails and one that works.
func (g *gen) turn() {
	g.prompts++
	prompt := g.text(10 + g.r.IntN(60))
	if g.r.IntN(6) == 0 {
		prompt += " " + fmt.Sprintf(said[g.r.IntN(len(said))], g.prompts)
	}
	if g.r.IntN(3) == 0 {
		prompt += "\n<system-reminder>\n" + g.text(60) + "\n</system-reminder>"
	}
	g.user(prompt)
	id := fmt.Sprint(g.seq)
	answer := g.text(10 + g.r.IntN(60))
	if g.r.IntN(20) == 0 {
		answer += fmt.Sprintf("\n\nTODO: wire the retry into internal/queue/retry%d.go.", g.prompts)
	}
	g.assistant(id, map[string]any{"type": "text", "text": answer})
	tid := fmt.Sprintf("toolu_%d", g.seq)
	switch g.r.IntN(8) {
	case 0:
		path := "/home/dev/shop-not-here/internal/" + g.text(1) + ".go"
		out := g.code(40 + g.r.IntN(400))
		if g.r.IntN(50) == 0 {
			out = strings.Repeat(g.code(20), 150)
		}
		g.result(id, tid, "Read", map[string]any{"file_path": path}, out, false)
	case 1:
		cmd := fmt.Sprintf("make deploy-%d", g.prompts%97)
		for i := range 3 {
			g.result(id, fmt.Sprintf("%s_%d", tid, i), "Bash", map[string]any{"command": cmd}, "Error: deploy target not found\nexit status 2", true)
		}
		g.result(id, tid+"_ok", "Bash", map[string]any{"command": "./scripts/deploy.sh"}, g.text(20)+"\ndeployed", false)
	case 2:
		out := g.text(20+g.r.IntN(80)) + "\nok  \tgithub.com/dev/shop/internal/cart\t0.31s"
		g.result(id, tid, "Bash", map[string]any{"command": "go test ./internal/" + g.text(1) + "/..."}, out, false)
	}
}
