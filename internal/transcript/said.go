package transcript

import (
	"iter"
	"time"
)

// Said yields what the person said in the digest, in their own words, with
// when they said it: the prompts of the main conversation (typed or queued)
// and their answers to the agent's questions (AskUserQuestion) with the
// options they picked, without the questions, which the agent wrote. It leaves out the prompts the agent
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
				case it.Kind == ItemTool:
					for _, a := range it.Tool.Chosen() {
						if !yield(t.Time, a) {
							return
						}
					}
				}
			}
		}
	}
}
