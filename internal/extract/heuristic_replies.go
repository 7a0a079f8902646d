package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// replies returns what the user said in turn t in reply to the agent's
// tool calls: their answers to its questions, and the feedback they gave
// when rejecting a call, which are their own words as much as a prompt.
func (h *Heuristic) replies(t *transcript.Turn, ps paths) []Candidate {
	var out []Candidate
	for _, it := range t.Items {
		c := it.Tool
		if it.Kind != transcript.ItemTool || c == nil {
			continue
		}
		for _, q := range c.Questions {
			if cand, ok := h.answer(q, t, ps); ok {
				out = append(out, cand)
			}
		}
		if c.Outcome == transcript.OutcomeRejected && strings.TrimSpace(c.Feedback) != "" {
			// A rejection corrects the call it refuses.
			for _, cand := range h.stated(c.Feedback, sentences(c.Feedback), t, t, true, ps) {
				cand.Why = "the user rejected " + c.Name + " in turn " + strconv.Itoa(t.Index) + " and said so"
				out = append(out, cand)
			}
		}
	}
	return out
}

// answer makes a decision of the user's answer to one question: the
// question, restated as what it decides ("Which tools should we set up?"
// is "Tools to set up"), then the answer and what the chosen option said
// of itself. A question about this moment only ("Shall I proceed?") has
// no lasting answer.
func (h *Heuristic) answer(q transcript.Question, t *transcript.Turn, ps paths) (Candidate, bool) {
	ans := strings.TrimSpace(q.Answer)
	ql := lower(q.Text)
	if ans == "" || h.rules.oneOff.MatchString(ql) {
		return Candidate{}, false
	}
	key := capitalize(h.questionKey(q.Text)) + ": " + ans
	fact := key
	if d := chosen(q, ans); d != "" {
		fact += " (" + strings.TrimRight(d, ".") + ")"
	}
	fact += ". The user chose it when asked: " + strings.Join(strings.Fields(q.Text), " ")
	c := Candidate{
		Description: describe(key),
		Fact:        cutRunes(fact, maxFactLen),
		Type:        memory.TypeProject,
		Category:    CategoryDecision,
		Files:       h.files(q.Text+" "+ans, ps),
		Confidence:  confStated,
		Why:         "the user answered the agent's question in turn " + strconv.Itoa(t.Index),
	}
	if h.rules.agentManner.MatchString(ql) {
		c.Type, c.Category = memory.TypeFeedback, CategoryPreference
	}
	return c, true
}

// questionKey restates a question as the thing its answer settles:
// "Which rig do these beads belong to? (…)" is "rig these beads belong
// to", "Which tools should we set up?" is "tools to set up"; a question of
// another shape is kept as asked, without its question mark.
func (h *Heuristic) questionKey(q string) string {
	if i := strings.Index(q, " ("); i > 0 {
		q = q[:i]
	}
	q = strings.TrimRight(strings.Join(strings.Fields(q), " "), "?:. ")
	m := h.rules.whichQuestion.FindStringSubmatch(q)
	if m == nil {
		return q
	}
	noun, aux, subj, rest := m[1], strings.ToLower(m[2]), m[3], m[4]
	switch {
	case aux == "do" || aux == "does" || aux == "did":
		return noun + " " + subj + " " + rest
	case slices.Contains([]string{"we", "i", "you"}, strings.ToLower(subj)):
		return noun + " to " + rest
	}
	return q
}

// chosen returns the description of the option the answer names, "" when
// it names none: options are "label: description".
func chosen(q transcript.Question, ans string) string {
	for _, o := range q.Options {
		label, desc, _ := strings.Cut(o, ": ")
		if strings.EqualFold(strings.TrimSpace(label), ans) {
			return strings.TrimSpace(desc)
		}
	}
	return ""
}
