package transcript

import "strings"

// Work counts what a digest shows was done: what decides whether a
// session is worth a model's reading.
type Work struct {
	Prompts    int `json:"prompts"`    // prompts a person typed in the main conversation, a lone slash command ("/mcp") left out
	Answers    int `json:"answers"`    // questions the person answered (AskUserQuestion)
	Rejections int `json:"rejections"` // tool calls the person rejected
	Calls      int `json:"calls"`      // tool calls, sub-agents' included
	Edits      int `json:"edits"`      // successful calls that created or edited a file
	Failures   int `json:"failures"`   // failed calls, grouped as [Digest.Failures] groups them
}

// Spoke returns how often the person spoke: prompts, answers, rejections.
func (w Work) Spoke() int { return w.Prompts + w.Answers + w.Rejections }

// Work counts what d shows was done.
func (d *Digest) Work() Work {
	var w Work
	for _, t := range d.Turns {
		prompted := false
		for _, it := range t.Items {
			switch {
			case it.Kind == ItemUser && t.Kind == TurnPrompt && !prompted && !slashOnly(it.Text):
				w.Prompts++
				prompted = true
			case it.Kind == ItemTool:
				c := it.Tool
				w.Calls++
				if c.Outcome == OutcomeRejected {
					w.Rejections++
				}
				w.Answers += len(c.Answers())
				if c.Outcome == OutcomeOK && (c.Op == FileEdit || c.Op == FileCreate) {
					w.Edits++
				}
			}
		}
	}
	w.Failures = len(d.Failures())
	return w
}

// slashOnly reports whether a prompt is only a slash command, such as
// "/mcp" or "/clear": a command to the client, not a turn of work.
func slashOnly(text string) bool {
	text = strings.TrimSpace(text)
	return strings.HasPrefix(text, "/") && !strings.ContainsAny(text, " \t\n")
}
