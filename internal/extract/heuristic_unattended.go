package extract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// unattended returns the commands that stopped at an interactive prompt
// and were then run without one, by piping the answers in or with a flag
// that skips the questions ("create-next-app" waiting for answers, then
// `yes "" | npx create-next-app …`). The way that worked is the last run
// of the command, after which the session moved on: only then is the
// workaround real, and worth a dead end.
func (h *Heuristic) unattended(d *transcript.Digest, ps paths) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	for _, t := range d.Turns {
		for i, it := range t.Items {
			c := it.Tool
			if it.Kind != transcript.ItemTool || c == nil || !shell(c.Name) || trivialCommand(c.Arg) || unattendedRun(c.Arg) {
				continue
			}
			sig := strings.Join(signature(c.Arg), " ")
			if seen[sig] || !h.rules.waitsForInput.MatchString(lower(nextProse(t.Items[i+1:]))) {
				continue
			}
			fix, ok := h.unattendedFix(t.Items[i+1:], sig)
			if !ok {
				continue
			}
			seen[sig] = true
			out = append(out, unattendedCandidate(c, fix, t, ps, h))
		}
	}
	return out
}

// unattendedFix finds the last run of the command sig in items; it is the
// fix when it succeeded without asking, and the prose after it does not
// say it waits again.
func (h *Heuristic) unattendedFix(items []transcript.Item, sig string) (*transcript.ToolCall, bool) {
	last := -1
	for j, it := range items {
		if o := it.Tool; it.Kind == transcript.ItemTool && o != nil && shell(o.Name) && strings.Join(signature(o.Arg), " ") == sig {
			last = j
		}
	}
	if last < 0 {
		return nil, false
	}
	fix := items[last].Tool
	if fix.Outcome != transcript.OutcomeOK || fix.Interrupted || fix.Reported || !unattendedRun(fix.Arg) ||
		h.rules.waitsForInput.MatchString(lower(nextProse(items[last+1:]))) {
		return nil, false
	}
	return fix, true
}

// nextProse returns the assistant's first prose in items, before any
// other tool call but the one it follows.
func nextProse(items []transcript.Item) string {
	for _, it := range items {
		switch it.Kind {
		case transcript.ItemAssistant:
			return it.Text
		case transcript.ItemTool:
			return ""
		}
	}
	return ""
}

// unattendedRun reports whether cmd answers its own questions: input is
// piped or redirected into its program, or a flag or variable turns the
// questions off.
func unattendedRun(cmd string) bool {
	first, _, _ := strings.Cut(cmd, "\n")
	words := strings.Fields(first)
	if slices.ContainsFunc(words, func(w string) bool {
		return slices.Contains([]string{"--yes", "-y", "--no-input", "--non-interactive", "--noninteractive", "--assume-yes", "--no-interaction", "-auto-approve", "--auto-approve", "-input=false"}, w) ||
			w == "CI=1" || w == "CI=true" || strings.HasPrefix(w, "DEBIAN_FRONTEND=noninteractive")
	}) {
		return true
	}
	if strings.Contains(first, "< /dev/null") || strings.Contains(first, "<<<") {
		return true
	}
	// yes "" | prog …, echo … | prog …, printf … | prog …
	before, _, ok := strings.Cut(first, "|")
	if !ok {
		return false
	}
	seg := before
	if i := strings.LastIndexAny(before, "&;"); i >= 0 {
		seg = before[i+1:] // cd web && yes | …
	}
	f := strings.Fields(seg)
	return len(f) > 0 && slices.Contains([]string{"yes", "echo", "printf"}, f[0])
}

func unattendedCandidate(c, fix *transcript.ToolCall, t *transcript.Turn, ps paths, h *Heuristic) Candidate {
	prog := strings.Join(signature(c.Arg), " ")
	fact := "`" + shortCommand(c.Arg, 120) + "` waits for interactive answers and stops there. " +
		"Run it unattended, with the answers piped in or a flag that skips the questions: `" + shortCommand(fix.Arg, 200) + "` worked in turn " + strconv.Itoa(fix.Turn) + "."
	var files []string
	for _, p := range append(h.files(c.Arg, ps), h.files(fix.Arg, ps)...) {
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	return Candidate{
		Description: describe("Run `" + prog + "` unattended: it waits for interactive answers"),
		Fact:        cutRunes(fact, maxFactLen),
		Type:        memory.TypeProject,
		Category:    CategoryDeadEnd,
		Files:       files,
		Confidence:  confWeak,
		Why:         "`" + prog + "` waited for input in turn " + strconv.Itoa(t.Index) + " until it was run unattended",
	}
}
