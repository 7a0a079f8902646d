package transcript

import (
	"iter"
	"strings"
	"time"
)

// Said yields what the person said in the digest, in their own words, with
// when they said it: the prompts of the main conversation (typed or queued)
// and their answers to the agent's questions (AskUserQuestion), without
// the questions, which the agent wrote. It leaves out the prompts the agent
// gave its sub-agents, compaction summaries, and text that came with a
// tool result ([ItemToolText]).
func (d *Digest) Said() iter.Seq2[time.Time, string] {
	return func(yield func(time.Time, string) bool) {
		for _, t := range d.Turns {
			if t.Kind == TurnAgent {
				continue
			}
			for _, it := range t.Items {
				switch {
				case it.Kind == ItemUser:
					if !yield(t.Time, it.Text) {
						return
					}
				case it.Kind == ItemTool && it.Tool.Name == "AskUserQuestion":
					for _, a := range answers(it.Tool.Result) {
						if !yield(t.Time, a) {
							return
						}
					}
				}
			}
		}
	}
}

// answers picks the answers out of an AskUserQuestion result, which Claude
// Code words as `User has answered your questions: "question"="answer",
// …. You can now continue…`.
func answers(result string) []string {
	var out []string
	for rest := result; ; {
		i := strings.Index(rest, `"="`)
		if i < 0 {
			return out
		}
		rest = rest[i+3:]
		end := strings.IndexByte(rest, '"')
		if end < 0 {
			return out
		}
		if a := strings.TrimSpace(rest[:end]); a != "" {
			out = append(out, a)
		}
		rest = rest[end+1:]
	}
}
