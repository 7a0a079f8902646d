package transcript

import (
	"slices"
	"strconv"
	"strings"
)

// rejectedByPerson reports whether Claude Code's record of an error result
// says the person rejected the call. The result's text never says so
// alone: any tool, an MCP server's above all, and a hook's denial reason
// can word an error as a rejection. The record says so when
//   - Claude Code tagged the line toolDenialKind "user-rejected" (2.1.202
//     and later tag every call they did not run: another kind is a rule, a
//     hook or a classifier, not the person);
//   - its toolUseResult is "User rejected tool use", which Claude Code
//     alone writes (a rejection by Esc, without feedback);
//   - before Claude Code tagged denials, the line is Claude Code's own
//     (a bare "Error: …" toolUseResult beside the one result), the call is
//     not an MCP server's, and the text opens as a rejection does.
//
// single says the line holds no other result, so its fields are this
// result's.
func rejectedByPerson(call string, e Entry, single bool) bool {
	if !single {
		return false
	}
	if e.DenialKind != "" {
		return e.DenialKind == "user-rejected"
	}
	if e.Result == nil {
		return false
	}
	if e.Result.Text == "User rejected tool use" {
		return true
	}
	return strings.HasPrefix(e.Result.Text, "Error: ") && !strings.HasPrefix(call, "mcp__") &&
		versionBefore(e.Version, [3]int{2, 1, 202})
}

// versionBefore reports whether v, a version "major.minor.patch", is
// before want. A version that does not read so is not before anything.
func versionBefore(v string, want [3]int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 {
		return false
	}
	var got [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return false
		}
		got[i] = n
	}
	return slices.Compare(got[:], want[:]) < 0
}

// rejection reports whether a tool result is the person's rejection of
// the call, and what they said with it: the text after "the user said:",
// without the reminder Claude Code appends ("Note: The user's next
// message may contain…"). Choosing to clarify an AskUserQuestion says
// nothing yet: the clarification is the next prompt.
func rejection(s string) (feedback string, ok bool) {
	s = strings.TrimSpace(strings.NewReplacer("<tool_use_error>", "", "</tool_use_error>", "").Replace(s))
	// What Claude Code answers in place of a tool's result when the person
	// rejects the call (the first two) or denies it to a sub-agent.
	openings := [...]string{
		"The user doesn't want to proceed with this tool use.",
		"The user doesn't want to take this action right now.",
		"Permission for this tool use was denied.",
	}
	if !slices.ContainsFunc(openings[:], func(p string) bool { return strings.HasPrefix(s, p) }) {
		return "", false
	}
	const said = "he user said:" // after "t" or "T"
	i := strings.Index(s, said)
	if i < 0 {
		return "", true
	}
	fb := s[i+len(said):]
	if j := strings.Index(fb, "\n\nNote: "); j >= 0 {
		fb = fb[:j]
	}
	fb = tidy(fb)
	if strings.HasPrefix(fb, "The user wants to clarify these questions.") {
		return "", true
	}
	return fb, true
}

// parseAnswers reads the answers out of AskUserQuestion's result text,
// which Claude Code words as `User has answered your questions:
// "question"="answer", …. You can now continue…`, for results without
// the structured answers.
func parseAnswers(s string) map[string]answerText {
	out := map[string]answerText{}
	_, rest, ok := strings.Cut(s, `: "`)
	for ok {
		var q, a string
		q, rest, ok = strings.Cut(rest, `"="`)
		if !ok {
			break
		}
		a, rest, _ = cutAnswer(rest)
		out[q] = answerText(a)
		_, rest, ok = strings.Cut(rest, `"`)
	}
	return out
}

// cutAnswer cuts s at the quote that closes an answer: one followed by a
// comma and the next question's quote, or by the end of the list.
func cutAnswer(s string) (answer, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		after := s[i+1:]
		if strings.HasPrefix(after, `, "`) || strings.HasPrefix(after, ".") || after == "" {
			return s[:i], after, true
		}
	}
	return s, "", false
}

// addAnswers fills the answers of an AskUserQuestion call from its result:
// the structured answers when the line has them, else the result's text.
// Questions the call's input did not list are added. When no answer can be
// read, the result's text is kept whole.
func (b *Builder) addAnswers(c *ToolCall, text string, structured map[string]answerText) {
	got := structured
	if len(got) == 0 {
		got = parseAnswers(text)
	}
	answers := make(map[string]string, len(got))
	var order []string
	for q, a := range got {
		q = b.opts.Redact(q)
		answers[q] = cut(b.opts.Redact(tidy(string(a))), b.opts.MaxResult)
		order = append(order, q)
	}
	slices.Sort(order)
	for i := range c.Questions {
		q := &c.Questions[i]
		if a, ok := answers[q.Text]; ok {
			q.Answer = a
			delete(answers, q.Text)
		}
	}
	for _, q := range order {
		if a, ok := answers[q]; ok {
			c.Questions = append(c.Questions, Question{Text: q, Answer: a})
		}
	}
	if len(got) == 0 {
		c.Result = Elide(tidy(b.opts.Redact(text)), b.opts.MaxResult)
	}
}

// addOutput keeps what a successful check command's output tells: its
// last and most telling lines, or, when it reports a failure that the
// status hides, its error lines (as [ToolCall.Error]).
func (b *Builder) addOutput(c *ToolCall, text string) {
	lines := outputLines(b.opts.Redact(text))
	if len(lines) == 0 {
		return
	}
	info := weigh(lines)
	n := b.opts.ErrorLines
	if reportsFailure(lines) {
		c.Reported = true
		c.Error = joinCut(pickLines(lines, info, n, max(n-1, 1), false), maxLineWidth)
		return
	}
	c.Output = joinCut(pickLines(lines, info, n, max(n-2, 1), true), maxLineWidth)
}

// maxLineWidth is the longest line of output kept, in characters.
const maxLineWidth = 240
