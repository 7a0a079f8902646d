package extract

import (
	"strconv"
	"strings"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// maxTodos bounds the TODOs taken from the last message.
const maxTodos = 5

// todos returns the work the assistant's last message of the session
// leaves open: sentences saying TODO, not yet, still needs, could not
// fix…, and the items listed under a heading such as "Next steps" or
// "Known issues". Offers and questions ("Would you like me to…") are not
// TODOs.
func (h *Heuristic) todos(d *transcript.Digest, ps paths) []Candidate {
	t, text := lastMessage(d)
	if t == nil {
		return nil
	}
	var out []Candidate
	for _, s := range h.openItems(text) {
		if len(out) == maxTodos {
			break
		}
		fact := tidy(strings.TrimSpace(s.text))
		if len(strings.Fields(fact)) < 3 {
			continue
		}
		c := Candidate{
			Description: describe("TODO: " + fact),
			Fact:        cutRunes(fact, maxFactLen),
			Type:        memory.TypeProject,
			Category:    CategoryTodo,
			Files:       h.files(fact, ps),
			Confidence:  confWeak,
			Why:         "left open in the assistant's last message, turn " + strconv.Itoa(t.Index),
		}
		if !s.explicit {
			c.Confidence = confCorrection
		}
		out = append(out, c)
	}
	return out
}

// reported returns the problems the user reported in a prompt ("scrolling
// in the editor still does not work") that nothing later in the session
// says were fixed: open work, in the user's words.
func (h *Heuristic) reported(d *transcript.Digest, ps paths) []Candidate {
	var out []Candidate
	fixed := sync.OnceValue(func() []bool { return h.fixedAfter(d) })
	for i, t := range d.Turns {
		if t.Kind != transcript.TurnPrompt {
			continue
		}
		for _, it := range t.Items {
			if it.Kind != transcript.ItemUser {
				continue
			}
			for _, s := range sentences(it.Text) {
				l := lower(s.text)
				if !h.rules.problem.MatchString(l) || h.rules.vagueProblem.MatchString(l) || len(strings.Fields(l)) < 5 || fixed()[i] {
					continue
				}
				fact := tidy(strings.TrimRight(s.text, "?!. "))
				out = append(out, Candidate{
					Description: describe("Unresolved: " + fact),
					Fact:        cutRunes(fact+". Still open when the session ended.", maxFactLen), // no turn number: a value the user did not say
					Type:        memory.TypeProject,
					Category:    CategoryTodo,
					Files:       h.files(fact, ps),
					Confidence:  confCorrection,
					Why:         "the user reported a problem in turn " + strconv.Itoa(t.Index) + " and no later message says it was fixed",
				})
				if len(out) == maxTodos {
					return out
				}
			}
		}
	}
	return out
}

// fixedAfter reports for each turn i of d whether something from it on
// says a problem reported in it was fixed: a later prompt ("works now,
// thanks") or the assistant's prose, in turn i or after. It reads each
// item once, from the end.
func (h *Heuristic) fixedAfter(d *transcript.Digest) []bool {
	out := make([]bool, len(d.Turns))
	later := false // a prompt or prose after turn i says so
	for i := len(d.Turns) - 1; i >= 0; i-- {
		t := d.Turns[i]
		if t.Kind == transcript.TurnAgent {
			out[i] = later
			continue
		}
		said, answered := false, false // by the person, by the assistant
		for _, it := range t.Items {
			if it.Kind != transcript.ItemUser && it.Kind != transcript.ItemAssistant || !h.rules.fixed.MatchString(lower(it.Text)) {
				continue
			}
			said = said || it.Kind == transcript.ItemUser
			answered = answered || it.Kind == transcript.ItemAssistant
		}
		out[i] = later || answered
		later = later || said || answered
	}
	return out
}

// lastMessage returns the last main-chain turn with assistant prose, and
// that prose.
func lastMessage(d *transcript.Digest) (*transcript.Turn, string) {
	for i := len(d.Turns) - 1; i >= 0; i-- {
		t := d.Turns[i]
		if t.Kind != transcript.TurnPrompt && t.Kind != transcript.TurnContinued {
			continue
		}
		for j := len(t.Items) - 1; j >= 0; j-- {
			if t.Items[j].Kind == transcript.ItemAssistant {
				return t, t.Items[j].Text
			}
		}
		return nil, "" // the last prompt got no answer
	}
	return nil, ""
}

// An openItem is a sentence of the last message that leaves work open;
// explicit when it says TODO or stands under a TODO-like heading.
type openItem struct {
	text     string
	explicit bool
}

func (h *Heuristic) openItems(text string) []openItem {
	var out []openItem
	section := false
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			fenced = !fenced
			continue
		}
		if fenced || trimmed == "" {
			continue
		}
		l := lower(trimmed)
		if heading(trimmed) {
			// "Done. Remaining work:" heads a list by its last sentence.
			if i := strings.LastIndex(l, ". "); i >= 0 {
				l = l[i+2:]
			}
			section = h.rules.todoHeading.MatchString(strings.Trim(l, "*_ "))
			continue
		}
		item := stripBullet(trimmed)
		if section && item != trimmed {
			if !h.rules.notTodo.MatchString(lower(item)) {
				out = append(out, openItem{strings.ReplaceAll(item, "**", ""), true})
			}
			continue
		}
		for _, s := range sentences(item) {
			sl := lower(s.text)
			marked := h.rules.todoMarker.MatchString(s.text)
			if (marked || h.rules.todo.MatchString(sl)) && !h.rules.notTodo.MatchString(sl) {
				out = append(out, openItem{h.rules.todoMarker.ReplaceAllString(s.text, ""), marked})
			}
		}
	}
	return out
}

// heading reports whether a line of Markdown is a heading: "## Next
// steps", "**Remaining:**" or "Known issues:".
func heading(line string) bool {
	if strings.HasPrefix(line, "#") {
		return true
	}
	if strings.HasPrefix(line, "**") && (strings.HasSuffix(line, "**") || strings.HasSuffix(line, "**:") || strings.HasSuffix(line, ":**")) {
		return true
	}
	return strings.HasSuffix(line, ":") && len(strings.Fields(line)) <= 4 && stripBullet(line) == line
}
