package transcript

import (
	"io"
	"iter"
	"strconv"
	"strings"
	"time"
)

// String renders the digest as text, in this format (version 2):
//
//	# session digest
//	session: <session id>
//	cwd: <working directory>
//	branch: <git branch>
//	claude-code: <version>   (codex: <version> for a Codex CLI session)
//	time: <first timestamp> to <last timestamp>
//	title: <legacy summary title of this session>
//
//	## turn 1 (2026-02-10T22:57:54Z)
//	user: <prompt, verbatim once cleaned>
//	assistant: <prose>
//	tool: Bash `go test ./...` -> error (exit 1)
//	  ! <the lines of the error that tell most>
//	tool: Bash `go test ./... | tail` -> ok (status of tail; the output reports a failure)
//	  ! <the lines of the output that tell most>
//	tool: Bash `npm run build` -> ok
//	  | <the last lines of a test, build, lint or commit command's output>
//	tool: Edit gen.go -> rejected
//	  user (rejected): <what the person said when rejecting the call>
//	tool: AskUserQuestion -> ok
//	  user (answer): <the person's answer>
//	    question: <the question>
//	    options: <label: description | …>
//	tool: Task Explore the parser (Explore) -> ok (work in turn 2)
//	  | <the sub-agent's report>
//	note: interrupted by user
//	tool output: <text that came with a tool result, not typed by the person>
//
//	## turn 2: agent a1b2c3d4, for turn 1 (…)
//	parent agent: <the instructions the sub-agent was given>
//	## turn 3: compaction (…)
//	compaction: context compacted (manual), 142431 tokens before
//	summary: <the compaction summary, long sections cut>
//
//	## files
//	created: <paths>
//	edited: <paths>
//	read: <paths>
//
//	## failures
//	- Bash `go test ./...` failed in turn 1 (2 times): <the line of the error that tells most>
//	  fixed in turn 2 by Bash `go test ./...`, after Edit parse.go
//
// Header lines whose value is unknown are left out, and so are empty
// sections. Times are UTC, to the second; turns are in the order they
// started, so a sub-agent's turn follows the one that started it. Turn
// kinds other than a prompt are named after the number ("continued" for
// entries that precede the first prompt of the part read). Continuation
// lines of multi-line text are indented by two spaces; error lines start
// with "  ! ", result and output lines with "  | ". Paths are relative to
// cwd when inside it. Outcomes are ok, error, rejected, interrupted, or
// "no result" when the result lies beyond the part read; "status of X"
// says the command line's exit status is X's (after a pipe, || or ;), not
// the checking command's. A sub-agent's report is given once, under the
// call that started it. The same digest always renders to the same bytes.
func (d *Digest) String() string {
	head := d.header("")
	n := len(head)
	for part := range d.parts() {
		n += len(part)
	}
	var b strings.Builder
	b.Grow(n) // rendered twice, held once: a digest's text can be most of a long session's
	b.WriteString(head)
	for part := range d.parts() {
		b.WriteString(part)
	}
	return b.String()
}

// WriteTo writes [Digest.String] to w a part at a time (a turn's heading,
// one of its items, a section), holding no more of the text than that. It
// stops at the first error w returns.
func (d *Digest) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, d.header(""))
	written := int64(n)
	if err != nil {
		return written, err
	}
	for part := range d.parts() {
		n, err := io.WriteString(w, part)
		written += int64(n)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// parts yields the digest's text after its header a part at a time: for
// each turn a blank line, its heading and each of its items (turnParts),
// then for each section a blank line and the section.
func (d *Digest) parts() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, t := range d.Turns {
			if !yield("\n") {
				return
			}
			for part := range turnParts(t) {
				if !yield(part) {
					return
				}
			}
		}
		for _, s := range d.sections() {
			if !yield("\n") || !yield(s) {
				return
			}
		}
	}
}

// header renders the header lines; chunk, when set, adds a "chunk:" line.
func (d *Digest) header(chunk string) string {
	var b strings.Builder
	b.WriteString("# session digest\n")
	field := func(name, v string) {
		if v != "" {
			b.WriteString(name + ": " + oneLine(v) + "\n")
		}
	}
	m := d.Meta
	field("session", m.SessionID)
	field("cwd", m.CWD)
	field("branch", m.GitBranch)
	agent := m.Agent
	if agent == "" {
		agent = "claude-code"
	}
	field(agent, m.Version)
	if !m.Start.IsZero() {
		field("time", stamp(m.Start)+" to "+stamp(m.End))
	}
	field("title", d.Title)
	field("chunk", chunk)
	return Printable(b.String())
}

// blocks renders each turn, then the files and failures sections, each
// ending with a newline, and yields them in that order with the index of
// the turn (0 for a section), for [Digest.Chunks], which splits them. One
// block is rendered at a time, so what renders the digest holds no more of
// it than it keeps.
func (d *Digest) blocks() iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for _, t := range d.Turns {
			if !yield(t.Index, renderTurn(t)) {
				return
			}
		}
		for _, s := range d.sections() {
			if !yield(0, s) {
				return
			}
		}
	}
}

// sections renders the files and failures sections, [Printable], leaving
// out an empty one.
func (d *Digest) sections() []string {
	var out []string
	for _, s := range [...]string{d.renderFiles(), d.renderFailures()} {
		if s != "" {
			out = append(out, Printable(s))
		}
	}
	return out
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

func turnHeading(t *Turn) string {
	s := "## turn " + strconv.Itoa(t.Index)
	switch t.Kind {
	case TurnContinued:
		s += ": continued"
	case TurnCompaction:
		s += ": compaction"
	case TurnAgent:
		s += ": agent " + t.Agent
		if t.Caller > 0 {
			s += ", for turn " + strconv.Itoa(t.Caller)
		}
	}
	if !t.Time.IsZero() {
		s += " (" + stamp(t.Time) + ")"
	}
	return s
}

// renderTurn renders a turn as the digest shows it, [Printable].
func renderTurn(t *Turn) string {
	var b strings.Builder
	for part := range turnParts(t) {
		b.WriteString(part)
	}
	return b.String()
}

// turnParts yields a turn's heading line, then each of its items as
// rendered, each [Printable] and ending with a newline: the turn's text, a
// part at a time. Printable takes a text apart line by line (a control
// sequence ends with its line at the latest), so the parts cleaned one by
// one are the whole cleaned at once.
func turnParts(t *Turn) iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(Printable(turnHeading(t) + "\n")) {
			return
		}
		for _, it := range t.Items {
			var b strings.Builder
			renderItem(&b, t, it)
			if !yield(Printable(b.String())) {
				return
			}
		}
	}
}

// renderItem writes one item of turn t.
func renderItem(b *strings.Builder, t *Turn, it Item) {
	switch it.Kind {
	case ItemUser:
		prefix := "user: "
		switch {
		case t.Kind == TurnAgent:
			prefix = "parent agent: " // the instructions of the agent that started it
		case it.Queued:
			prefix = "user (queued): "
		}
		writeText(b, prefix, "  ", it.Text)
	case ItemToolText:
		writeText(b, "tool output: ", "  ", it.Text)
	case ItemAssistant:
		writeText(b, "assistant: ", "  ", it.Text)
	case ItemNote:
		writeText(b, "note: ", "  ", it.Text)
	case ItemCompaction:
		writeText(b, "compaction: ", "  ", it.Text)
	case ItemSummary:
		writeText(b, "summary: ", "  ", it.Text)
	case ItemTool:
		renderCall(b, it.Tool)
	}
}

// renderCall writes a tool call's line and what it keeps of its result.
func renderCall(b *strings.Builder, c *ToolCall) {
	b.WriteString("tool: ")
	b.WriteString(callText(c))
	b.WriteString(" -> ")
	b.WriteString(outcomeText(c))
	b.WriteByte('\n')
	if c.Feedback != "" {
		writeText(b, "  user (rejected): ", "    ", c.Feedback)
	}
	for _, q := range c.Questions {
		if q.Answer == "" {
			writeText(b, "  unanswered: ", "    ", q.Text)
			continue
		}
		writeText(b, "  user (answer): ", "    ", q.Answer)
		text := q.Text
		if q.Multiple {
			text += " (several allowed)"
		}
		writeText(b, "    question: ", "      ", text)
		if len(q.Options) > 0 {
			writeText(b, "    options: ", "      ", strings.Join(q.Options, " | "))
		}
	}
	if c.Error != "" {
		writeText(b, "  ! ", "  ! ", c.Error)
	}
	if c.Output != "" {
		writeText(b, "  | ", "  | ", c.Output)
	}
	if c.Result != "" {
		writeText(b, "  | ", "  | ", c.Result)
	}
}

// callText renders a call as its tool name and key argument; commands are
// set in backticks.
func callText(c *ToolCall) string {
	if c.Arg == "" {
		return c.Name
	}
	if c.Name == "Bash" || c.Name == "PowerShell" {
		s := c.Name + " `" + c.Arg + "`"
		if c.Background {
			s += " (background)"
		}
		return s
	}
	return c.Name + " " + c.Arg
}

func outcomeText(c *ToolCall) string {
	var s string
	switch {
	case c.Interrupted:
		return "interrupted"
	case c.Outcome == OutcomeRejected:
		return "rejected"
	case c.Outcome == OutcomeOK:
		s = "ok"
	case c.Outcome == OutcomeError:
		s = "error"
		if c.Exit != "" {
			s += " (exit " + c.Exit + ")"
		}
		return s
	default:
		return "no result"
	}
	var notes []string
	if c.StatusOf != "" {
		notes = append(notes, "status of "+c.StatusOf)
	}
	if c.Reported {
		notes = append(notes, "the output reports a failure")
	}
	if c.AgentTurn > 0 {
		notes = append(notes, "work in turn "+strconv.Itoa(c.AgentTurn))
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// writeText writes text with prefix before its first line and indent before
// each following non-empty line.
func writeText(b *strings.Builder, prefix, indent, text string) {
	first := true
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case first:
			// prefix+line without its trailing spaces, not put together.
			if l := strings.TrimRight(line, " "); l != "" {
				b.WriteString(prefix)
				b.WriteString(l)
			} else {
				b.WriteString(strings.TrimRight(prefix, " "))
			}
			first = false
		case line == "":
			b.WriteString(strings.TrimRight(indent, " "))
		default:
			b.WriteString(indent)
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
}

func (d *Digest) renderFiles() string {
	f := d.Files()
	if len(f.Created)+len(f.Edited)+len(f.Read) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## files\n")
	for _, l := range []struct {
		name  string
		paths []string
	}{{"created", f.Created}, {"edited", f.Edited}, {"read", f.Read}} {
		if len(l.paths) > 0 {
			b.WriteString(l.name + ": " + strings.Join(l.paths, ", ") + "\n")
		}
	}
	return b.String()
}

func (d *Digest) renderFailures() string {
	fs := d.Failures()
	if len(fs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## failures\n")
	for _, f := range fs {
		b.WriteString("- " + callText(f.Call) + " failed in turn " + strconv.Itoa(f.Call.Turn))
		if f.Count > 1 {
			b.WriteString(" (" + strconv.Itoa(f.Count) + " times)")
		}
		if h := headline(f.Call.Error); h != "" {
			b.WriteString(": " + h)
		}
		b.WriteByte('\n')
		if f.FixedBy == nil {
			b.WriteString("  not fixed\n")
			continue
		}
		b.WriteString("  fixed in turn " + strconv.Itoa(f.FixedBy.Turn) + " by " + callText(f.FixedBy))
		for i, a := range f.After {
			if i == 0 {
				b.WriteString(", after ")
			} else {
				b.WriteString("; ")
			}
			b.WriteString(callText(a))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
