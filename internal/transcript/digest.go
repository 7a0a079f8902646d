package transcript

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Options tune a digest. The zero value is ready to use.
type Options struct {
	// Redact, when set, is applied to every piece of text the digest keeps
	// (prompts, prose, tool arguments, errors, results, summaries) before
	// it is cut to size, so a secret is never cut in half where a pattern
	// can no longer see it. Callers that leave it nil must redact the
	// rendered text themselves.
	Redact func(string) string

	// CWD is the session's working folder when the transcript does not say
	// (a Gemini CLI session does not): paths inside it are shown relative.
	CWD string

	// Skipped, when set, hears of each line that [Builder.ReadFile] steps
	// over as too long to decode ([DefaultMaxLineBytes]): the file, the
	// line's number counted from where the read started, its offset and
	// its length. The rest of the file is read all the same.
	Skipped func(path string, line int, offset int64, size int)

	MaxPrompt  int // characters of one user prompt kept; default 6000
	MaxProse   int // characters of one assistant message kept; default 3000
	MaxResult  int // characters of a sub-agent report or answer kept; default 1500
	MaxSummary int // characters of a compaction summary kept; default 8000
	ErrorLines int // lines of a tool error kept; default 4
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxPrompt, 6000)
	def(&o.MaxProse, 3000)
	def(&o.MaxResult, 1500)
	def(&o.MaxSummary, 8000)
	def(&o.ErrorLines, 4)
	if o.Redact == nil {
		o.Redact = func(s string) string { return s }
	}
	return o
}

// A Digest is the compact, ordered account of a session (or of the part of
// it read by one job) that an extractor reads. Its text form is [Digest.String];
// its size is [Digest.Tokens]; [Digest.Chunks] splits it under a budget.
type Digest struct {
	Meta  Meta
	Title string // a legacy summary line's title, when the transcript has one
	Turns []*Turn
}

// A TurnKind says what opened a turn.
type TurnKind int

// Kinds of turns.
const (
	TurnPrompt     TurnKind = iota // a person's prompt
	TurnContinued                  // entries before the first prompt of this part of the transcript
	TurnCompaction                 // a compaction boundary and its summary
	TurnAgent                      // the whole conversation of one sub-agent
)

// A Turn is a person's prompt and everything that followed it up to the next
// prompt, or one sub-agent's conversation, or a compaction.
type Turn struct {
	Index  int // 1-based position in the digest
	Kind   TurnKind
	Agent  string // TurnAgent: the sub-agent's id (agentId, or the first 8 characters of its root uuid)
	Caller int    // TurnAgent: the turn whose Task call started it, 0 when not in the digest
	Time   time.Time
	Items  []Item

	thread string // TurnAgent: the sub-agent's thread key
	prompt string // TurnAgent: promptKey of its instructions
}

// An ItemKind says what an item holds.
type ItemKind int

// Kinds of items.
const (
	ItemUser       ItemKind = iota // a prompt (Text)
	ItemAssistant                  // assistant prose (Text)
	ItemTool                       // a tool call (Tool)
	ItemNote                       // an event such as an interruption (Text)
	ItemCompaction                 // a compaction boundary (Text: trigger and size)
	ItemSummary                    // the compaction summary (Text)
	ItemToolText                   // text that arrived in the same message as a tool result: tool output, not the person's (Text)
)

// An Item is one line (or paragraph) of a turn.
type Item struct {
	Kind   ItemKind
	Text   string
	Queued bool      // ItemUser: typed while the agent was working
	Tool   *ToolCall // ItemTool
}

// An Outcome is how a tool call ended.
type Outcome int

// Outcomes of tool calls.
const (
	OutcomeNone     Outcome = iota // no result in this part of the transcript
	OutcomeOK                      // a result that is not an error
	OutcomeError                   // a result marked is_error
	OutcomeRejected                // the person rejected the call before it ran
)

// A ToolCall is a tool_use paired with its tool_result.
type ToolCall struct {
	ID          string
	Name        string
	Arg         string // the key argument: a path, a command, a pattern, a URL…
	Path        string // the file read or written, relative to the session's cwd when inside it
	Op          FileOp
	Outcome     Outcome
	Background  bool   // a command started in the background
	Interrupted bool   // the person stopped the call
	Error       string // OutcomeError, or Reported: the lines of the output that tell most
	Result      string // text worth keeping from a successful result: a sub-agent's report
	Turn        int    // index of the turn the call belongs to

	// Commands.
	Exit     string // OutcomeError: the exit status the result gives, "" when it gives none
	Check    bool   // a test, build, lint or commit command, whose output is evidence
	StatusOf string // the program whose exit status the command line returns, when not the checking command's own (a pipe, ||, ;)
	Reported bool   // OutcomeOK, but the output of a check command reports a failure (its lines are in Error)
	Output   string // OutcomeOK: the last and most telling lines of a check command's output

	Feedback  string     // OutcomeRejected: what the person said when rejecting the call
	Questions []Question // AskUserQuestion: what was asked, the options and the person's answers
	AgentTurn int        // Task, Agent: the turn holding the sub-agent's own conversation, 0 when not in the digest

	thread    string // "" for the main chain, else the sub-agent
	seq       int    // order of the call in the digest
	prompt    string // Task, Agent: the start of the instructions, to find the sub-agent's turn
	agentID   string // Task, Agent: the sub-agent's id, when the result names it
	reportKey uint64 // Task, Agent: a hash of the whole report, to find it again in the sub-agent's turn
}

// A Question is one question an agent asked the person (AskUserQuestion).
type Question struct {
	Text     string
	Options  []string // "label: description" each
	Multiple bool     // several options could be chosen
	Answer   string   // the person's answer, "" when none was given
}

// Answers returns the person's answers to an AskUserQuestion call, in the
// order the questions were asked: what they said, without the questions
// and options, which the agent wrote.
func (c *ToolCall) Answers() []string {
	var out []string
	for _, q := range c.Questions {
		if q.Answer != "" {
			out = append(out, q.Answer)
		}
	}
	return out
}

// A Choice is the person's answer to one question the agent asked: the
// answer (the labels they picked, or what they typed) is theirs; the
// descriptions the agent wrote for the options they picked come apart.
type Choice struct {
	Answer    string
	Described string // the picked options' descriptions, one a line: the agent's words
}

// Chosen returns, for each answered question, the answer and the
// descriptions of the options it picked. The question and the options
// not chosen are left out: only the agent wrote them.
func (c *ToolCall) Chosen() []Choice {
	var out []Choice
	for _, q := range c.Questions {
		if q.Answer == "" {
			continue
		}
		ch := Choice{Answer: q.Answer}
		var described []string
		for _, o := range q.Options {
			if label, desc, _ := strings.Cut(o, ": "); chosen(q.Answer, label) && desc != "" {
				described = append(described, desc)
			}
		}
		ch.Described = strings.Join(described, "\n")
		out = append(out, ch)
	}
	return out
}

// chosen reports whether an answer picks the option labelled label: the
// answer is the label, or one of its comma-separated parts.
func chosen(answer, label string) bool {
	if label == "" {
		return false
	}
	for _, part := range strings.Split(answer, ",") {
		if strings.EqualFold(strings.TrimSpace(part), label) {
			return true
		}
	}
	return false
}

// failed reports whether the call failed: its result is an error, or its
// output reports a failure its status hides.
func (c *ToolCall) failed() bool {
	return !c.Interrupted && (c.Outcome == OutcomeError || c.Outcome == OutcomeOK && c.Reported)
}

// succeeded reports whether the call ran and nothing says it failed.
func (c *ToolCall) succeeded() bool {
	return !c.Interrupted && c.Outcome == OutcomeOK && !c.Reported
}

// Build reads r to its end and returns the digest of what it read. It stops
// early, returning ctx's error, when ctx ends.
func Build(ctx context.Context, r *Reader, opts Options) (*Digest, error) {
	b := NewBuilder(opts)
	if err := b.ReadFrom(ctx, r); err != nil {
		return nil, err
	}
	return b.Digest(), nil
}

// Tokens returns the estimated size of [Digest.String] in tokens.
// It counts the text as it is rendered, a part at a time, without holding it.
func (d *Digest) Tokens() int {
	n := utf8.RuneCountInString(d.header(""))
	for part := range d.parts() {
		n += utf8.RuneCountInString(part)
	}
	return memory.RuneTokens(n)
}
