package transcript

import (
	"hash/fnv"
	"slices"
	"strings"
)

// promptKey is what identifies a sub-agent's instructions on both sides:
// the start of the text, its spaces collapsed.
func promptKey(s string) string {
	return cut(strings.Join(strings.Fields(s), " "), 200)
}

// textKey is a hash of a text with its spaces collapsed, to find the same
// text again without keeping it.
func textKey(s string) uint64 {
	h := fnv.New64a()
	for i, f := range strings.Fields(s) {
		if i > 0 {
			h.Write([]byte{' '})
		}
		h.Write([]byte(f))
	}
	return h.Sum64()
}

// orderTurns places each sub-agent's turn after the main turn during
// which it started (a sub-agent read from a file of its own comes after
// the whole main transcript), and renumbers the turns. The main turns keep
// their order; sub-agent turns without a time go last.
func orderTurns(turns []*Turn, calls []*ToolCall) {
	var mains, agents []*Turn
	for _, t := range turns {
		if t.Kind == TurnAgent {
			agents = append(agents, t)
		} else {
			mains = append(mains, t)
		}
	}
	slices.SortStableFunc(agents, func(a, b *Turn) int {
		switch {
		case a.Time.IsZero() || b.Time.IsZero():
			return boolInt(a.Time.IsZero()) - boolInt(b.Time.IsZero())
		}
		return a.Time.Compare(b.Time)
	})
	out := turns[:0]
	next := 0
	for i, m := range mains {
		out = append(out, m)
		for next < len(agents) && !agents[next].Time.IsZero() &&
			(i == len(mains)-1 || agents[next].Time.Before(mains[i+1].Time)) {
			out = append(out, agents[next])
			next++
		}
	}
	out = append(out, agents[next:]...)
	renum := make(map[int]int, len(out))
	for i, t := range out {
		renum[t.Index] = i + 1
		t.Index = i + 1
	}
	for _, c := range calls {
		c.Turn = renum[c.Turn]
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// linkAgents pairs each Task (or Agent) call with the turn of the
// sub-agent it started, found by the agent id its result names or by its
// instructions. A linked sub-agent turn drops its last prose when that is
// the report the call already holds, so the report is given once.
func linkAgents(turns []*Turn, calls []*ToolCall) {
	byIndex := make(map[int]*Turn, len(turns))
	for _, t := range turns {
		byIndex[t.Index] = t
	}
	for _, c := range calls {
		if c.Name != "Task" && c.Name != "Agent" {
			continue
		}
		i := slices.IndexFunc(turns, func(t *Turn) bool {
			return t.Kind == TurnAgent && t.Caller == 0 &&
				(c.agentID != "" && t.thread == c.agentID || c.prompt != "" && t.prompt == c.prompt)
		})
		if i < 0 {
			continue
		}
		at := turns[i]
		at.Caller, c.AgentTurn = c.Turn, at.Index
		if c.Result == "" {
			continue
		}
		for j := len(at.Items) - 1; j >= 0; j-- {
			if it := at.Items[j]; it.Kind == ItemAssistant {
				if textKey(it.Text) == c.reportKey {
					at.Items = slices.Delete(at.Items, j, j+1)
				}
				break
			}
		}
	}
}

// digestTitle is the first legacy summary title whose conversation is
// this transcript: its leaf was read, or it names none.
func (b *Builder) digestTitle() string {
	for _, t := range b.titles {
		if t.leaf == "" || b.leaves[t.leaf] {
			return t.text
		}
	}
	return ""
}
