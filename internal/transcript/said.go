package transcript

import (
	"iter"
	"time"
)

// A Saying is one thing the person said in a session.
type Saying struct {
	Text string
	At   time.Time
	// Chosen reports that the person picked it among options the agent
	// offered (an answer to AskUserQuestion: the labels they picked, or
	// what they typed): the choice is theirs, the options' words the
	// agent's.
	Chosen bool
	// Described holds, for a choice, the agent's descriptions of the
	// options picked: words that came with what the person said, never
	// values they said.
	Described string
}

// Sayings yields what the person said in the digest, in their own words,
// with when they said it: the prompts of the main conversation (typed or
// queued) and their answers to the agent's questions (AskUserQuestion)
// with the options they picked (the descriptions of those apart, in
// Described), without the questions, which the agent wrote. It leaves out the prompts the agent gave its sub-agents,
// compaction summaries, and text that came with a tool result
// ([ItemToolText]).
func (d *Digest) Sayings() iter.Seq[Saying] {
	return func(yield func(Saying) bool) {
		for _, t := range d.Turns {
			if t.Kind == TurnAgent {
				continue
			}
			for _, it := range t.Items {
				switch {
				case it.Kind == ItemUser:
					if !yield(Saying{Text: it.Text, At: t.Time}) {
						return
					}
				case it.Kind == ItemTool:
					for _, ch := range it.Tool.Chosen() {
						if !yield(Saying{Text: ch.Answer, At: t.Time, Chosen: true, Described: ch.Described}) {
							return
						}
					}
				}
			}
		}
	}
}

// Said yields the text of [Digest.Sayings] with when it was said.
func (d *Digest) Said() iter.Seq2[time.Time, string] {
	return func(yield func(time.Time, string) bool) {
		for s := range d.Sayings() {
			if !yield(s.At, s.Text) {
				return
			}
		}
	}
}
