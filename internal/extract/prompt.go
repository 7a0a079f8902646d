package extract

import (
	"context"
	_ "embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/fence"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// promptText is the instruction every model provider sends, with the
// policy's bars left as {stated_at}, {confirmed_at} and {inferred_cap}.
//
//go:embed prompt.md
var promptText string

// systemPrompt is promptText with the bars of package approval, so that
// what the prompt asks of a model is what the validator and consolidation
// apply.
var systemPrompt = strings.NewReplacer(
	"{stated_at}", strconv.FormatFloat(approval.StatedAt, 'g', -1, 64),
	"{confirmed_at}", strconv.FormatFloat(approval.ConfirmedAt, 'g', -1, 64),
	"{inferred_cap}", strconv.FormatFloat(approval.InferredCap, 'g', -1, 64),
).Replace(promptText)

// A message is one turn of a conversation with a model.
type message struct {
	Role string // "user" or "assistant"
	Text string
}

// A request is what a backend sends: the system prompt and a conversation
// that starts and ends with the user.
type request struct {
	System    string
	Messages  []message
	MaxTokens int
}

// Stop reasons a backend reports, beyond a normal end.
const (
	stopMaxTokens = "max_tokens"
	stopRefusal   = "refusal"
)

// A reply is what a backend got back.
type reply struct {
	Text  string
	Stop  string // "", stopMaxTokens or stopRefusal
	Usage Usage
}

// digestFence fences a digest in a request: a session's text is data for
// the model, not instructions.
var digestFence = fence.New("digest")

// digestMessage frames one chunk of a digest for the model. The chunk is
// fenced in <digest> tags and escaped so that nothing in it (a tool's
// output, a file the session read) closes the fence early.
func digestMessage(chunk string, i, n int) string {
	var b strings.Builder
	if n > 1 {
		b.WriteString("This is part " + strconv.Itoa(i) + " of " + strconv.Itoa(n) +
			" of the session; the other parts are sent separately. Extract only what this part shows.\n\n")
	}
	b.WriteString(digestFence.Open() + "\n")
	b.WriteString(digestFence.Escape(chunk))
	if !strings.HasSuffix(chunk, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(digestFence.Close() + "\n\nReply with the JSON array only.")
	return b.String()
}

// repairMessage asks the model to correct its reply.
func repairMessage(problems []string) string {
	var b strings.Builder
	b.WriteString("Your reply is not valid:\n")
	for _, p := range problems {
		b.WriteString("- " + p + "\n")
	}
	b.WriteString("\nReply again with the corrected JSON array only, nothing else. Keep the items that were valid; drop an item rather than guess.")
	return b.String()
}

// estimate returns the tokens a request may cost: its text plus all the
// output it allows.
func (r request) estimate() int {
	n := memory.EstimateTokens(r.System) + r.MaxTokens
	for _, m := range r.Messages {
		n += memory.EstimateTokens(m.Text) + 4
	}
	return n
}

// A Request is one model call an extraction begins with, as every model
// provider is given it: the system prompt, the user message (a chunk of
// the digest, fenced), and the output it may take. A provider wraps it in
// its own envelope (the claude CLI flattens it into one prompt); a reply
// that needs a repair adds a second exchange.
type Request struct {
	Part      int    `json:"part"` // the chunk of the digest it holds, 1-based
	Parts     int    `json:"parts"`
	System    string `json:"system"`
	User      string `json:"user"`
	MaxTokens int    `json:"max_tokens"`
	Tokens    int    `json:"tokens"` // estimated cost: the input and all the output it allows
}

// Requests returns the requests an extraction of d under cfg begins with
// (naming the memories cfg.Related gives),
// in the order they are sent (the session's end first), or an error
// matching [ErrTooShort] when d shows too little work to be sent. Budgets
// are not applied: the day's spend is not known here, and a session
// budget stops the calls from the first that does not fit.
func Requests(ctx context.Context, cfg Config, d *transcript.Digest) ([]Request, error) {
	cfg = cfg.withDefaults()
	planned, _, err := plan(ctx, cfg, d)
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	out := make([]Request, len(planned))
	for i, p := range planned {
		out[i] = Request{Part: p.part, Parts: len(planned), System: p.System, User: p.Messages[0].Text,
			MaxTokens: p.MaxTokens, Tokens: p.estimate()}
	}
	return out, nil
}
