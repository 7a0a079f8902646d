package transcript

import (
	"strconv"
	"strings"
	"time"
)

// String renders the digest as text, in this format (version 1):
//
//	# session digest
//	session: <session id>
//	cwd: <working directory>
//	branch: <git branch>
//	claude-code: <version>   (codex: <version> for a Codex CLI session)
//	time: <first timestamp> to <last timestamp>
//	title: <legacy summary title>
//
//	## turn 1 (2026-02-10T22:57:54Z)
//	user: <prompt, verbatim once cleaned>
//	assistant: <prose>
//	tool: Bash `go test ./...` -> error
//	  ! <first lines of the error>
//	tool: Bash `npm run dev` (background) -> ok
//	tool: Task Explore the parser (Explore) -> ok
//	  | <the sub-agent's report>
//	note: interrupted by user
//	tool output: <text that came with a tool result, not typed by the person>
//
//	## turn 2: agent a1b2c3d4 (…)
//	## turn 3: compaction (…)
//	compaction: context compacted (manual), 142431 tokens before
//	summary: <the compaction summary>
//
//	## files
//	created: <paths>
//	edited: <paths>
//	read: <paths>
//
//	## failures
//	- Bash `go test ./...` failed in turn 1 (2 times): <first error line>
//	  fixed in turn 2 by Bash `go test ./...`, after Edit parse.go
//
// Header lines whose value is unknown are left out, and so are empty
// sections. Times are UTC, to the second. Turn kinds other than a prompt
// are named after the number ("continued" for entries that precede the first
// prompt of the part read). Continuation lines of multi-line text are
// indented by two spaces; error lines start with "  ! ", result lines with
// "  | ". Paths are relative to cwd when inside it. Outcomes are ok, error,
// interrupted, or "no result" when the result lies beyond the part read.
// The same digest always renders to the same bytes.
func (d *Digest) String() string {
	var b strings.Builder
	b.WriteString(d.header(""))
	for _, block := range d.blocks() {
		b.WriteByte('\n')
		b.WriteString(block)
	}
	return b.String()
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
	return b.String()
}

// blocks renders each turn, then the files and failures sections, each
// ending with a newline.
func (d *Digest) blocks() []string {
	out := make([]string, 0, len(d.Turns)+2)
	for _, t := range d.Turns {
		out = append(out, renderTurn(t))
	}
	if s := d.renderFiles(); s != "" {
		out = append(out, s)
	}
	if s := d.renderFailures(); s != "" {
		out = append(out, s)
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
	}
	if !t.Time.IsZero() {
		s += " (" + stamp(t.Time) + ")"
	}
	return s
}

func renderTurn(t *Turn) string {
	var b strings.Builder
	b.WriteString(turnHeading(t))
	b.WriteByte('\n')
	for _, it := range t.Items {
		switch it.Kind {
		case ItemUser:
			prefix := "user: "
			if it.Queued {
				prefix = "user (queued): "
			}
			writeText(&b, prefix, "  ", it.Text)
		case ItemToolText:
			writeText(&b, "tool output: ", "  ", it.Text)
		case ItemAssistant:
			writeText(&b, "assistant: ", "  ", it.Text)
		case ItemNote:
			writeText(&b, "note: ", "  ", it.Text)
		case ItemCompaction:
			writeText(&b, "compaction: ", "  ", it.Text)
		case ItemSummary:
			writeText(&b, "summary: ", "  ", it.Text)
		case ItemTool:
			c := it.Tool
			b.WriteString("tool: " + callText(c) + " -> " + outcomeText(c) + "\n")
			if c.Error != "" {
				writeText(&b, "  ! ", "  ! ", c.Error)
			}
			if c.Result != "" {
				writeText(&b, "  | ", "  | ", c.Result)
			}
		}
	}
	return b.String()
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
	switch {
	case c.Interrupted:
		return "interrupted"
	case c.Outcome == OutcomeOK:
		return "ok"
	case c.Outcome == OutcomeError:
		return "error"
	}
	return "no result"
}

// writeText writes text with prefix before its first line and indent before
// each following non-empty line.
func writeText(b *strings.Builder, prefix, indent, text string) {
	first := true
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case first:
			b.WriteString(strings.TrimRight(prefix+line, " "))
			first = false
		case line == "":
			b.WriteString(strings.TrimRight(indent, " "))
		default:
			b.WriteString(indent + line)
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

// headline picks the line of an error excerpt that best names the error:
// the first that mentions one, else the first.
func headline(excerpt string) string {
	first, _, _ := strings.Cut(excerpt, "\n")
	for line := range strings.SplitSeq(excerpt, "\n") {
		if errorish(line) {
			return line
		}
	}
	return first
}
