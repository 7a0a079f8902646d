package extract

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// realDir returns the folder of the real Claude Code transcripts and
// their labels: shared/bench/transcripts beside the repository, found by
// walking up from the package (a worktree sits deeper than the clone).
func realDir() string {
	dir, _ := filepath.Abs(".")
	for {
		p := filepath.Join(dir, "shared", "bench", "transcripts")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return p
		}
		dir = up
	}
}

// labels is shared/bench/transcripts/labels.json: what a careful reviewer
// keeps from each transcript, and the traps no active memory may match.
type labels struct {
	Transcripts map[string]struct {
		Facts []labelledFact `json:"facts"`
		Traps []struct {
			Pattern string `json:"pattern"`
			Why     string `json:"why"`
		} `json:"traps"`
	} `json:"transcripts"`
}

type labelledFact struct {
	ID     string     `json:"id"`
	Source string     `json:"source"` // typed, answer, rejection, outcome, inferred, tool
	Match  [][]string `json:"match"`
}

// matches reports whether c states f: its description and body, lower
// cased, hold a string of every group of f.Match.
func (f labelledFact) matches(c Candidate) bool {
	text := strings.ToLower(c.Description + "\n" + c.Fact)
	for _, group := range f.Match {
		if !slices.ContainsFunc(group, func(s string) bool { return strings.Contains(text, strings.ToLower(s)) }) {
			return false
		}
	}
	return true
}

// active reports whether the worker would make c an active memory: the
// person's words state it (the worker's provenance check on description
// and body), it is not from tool output, and it clears the default
// auto-approve bar.
func active(said *provenance.Said, c Candidate) bool {
	stated := said.Check(c.Description + "\n" + c.Fact).Stated
	return approval.Active(approval.Of(stated, false, c.FromToolOutput), c.Confidence)
}

// A realScore counts, by evidence kind, the labelled facts found and how
// the first candidate that states each would be kept.
type realScore struct {
	facts, found, active, drafted map[string]int
	stated                        map[string]int // found facts whose candidate the person's words state, active or not
	candidates, unmatched         int            // candidates, and those that state no labelled fact
	trapsActive                   int
}

// stated are the evidence kinds in the person's own words or in what the
// session's commands did, which the offline extractor is measured on.
var statedSources = []string{"typed", "answer", "rejection", "outcome"}

func (s realScore) sum(m map[string]int) int {
	n := 0
	for _, src := range statedSources {
		n += m[src]
	}
	return n
}

// TestHeuristicRealTranscripts scores the heuristic extractor on the real
// transcripts of shared/bench against labels.json (skipped when absent):
// the facts it finds, whether each would be active or drafted, and the
// traps an active memory matches. It asserts the numbers as floors: on
// facts from typed, answer, rejection and outcome evidence, at least
// minFound found; at most maxUnmatched candidates that state no labelled
// fact; and no trap active ever.
func TestHeuristicRealTranscripts(t *testing.T) {
	const (
		minFound     = 5 // of the 5 facts from typed, answer, rejection and outcome evidence
		maxUnmatched = 0 // candidates that state no labelled fact: noise a reviewer would reject
	)
	dir := realDir()
	raw, err := os.ReadFile(filepath.Join(dir, "labels.json"))
	if err != nil {
		t.Skipf("no labels: %v", err)
	}
	var ls labels
	if err := json.Unmarshal(raw, &ls); err != nil {
		t.Fatalf("labels.json: %v", err)
	}
	h := NewHeuristic(Config{})
	s := realScore{facts: map[string]int{}, found: map[string]int{}, active: map[string]int{}, drafted: map[string]int{}, stated: map[string]int{}}
	for name, l := range ls.Transcripts {
		d := digestFile(t, filepath.Join(dir, name))
		cands, _, err := h.Extract(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		said := personSaid(d)
		s.candidates += len(cands)
		for _, c := range cands {
			if !slices.ContainsFunc(l.Facts, func(f labelledFact) bool { return f.matches(c) }) {
				s.unmatched++
			}
			t.Logf("%s: %s/%s %.2f active=%v %q", name, c.Type, c.Category, c.Confidence, active(said, c), c.Description)
		}
		for _, f := range l.Facts {
			s.facts[f.Source]++
			i := slices.IndexFunc(cands, f.matches)
			if i < 0 {
				t.Logf("%s: missed %s fact %s", name, f.Source, f.ID)
				continue
			}
			s.found[f.Source]++
			if said.Check(cands[i].Description + "\n" + cands[i].Fact).Stated {
				s.stated[f.Source]++
			}
			if active(said, cands[i]) {
				s.active[f.Source]++
			} else {
				s.drafted[f.Source]++
			}
		}
		for _, trap := range l.Traps {
			re := regexp.MustCompile("(?i)" + trap.Pattern)
			for _, c := range cands {
				if active(said, c) && re.MatchString(c.Description+"\n"+c.Fact) {
					s.trapsActive++
					t.Errorf("%s: active candidate %q matches trap %q (%s)", name, c.Description, trap.Pattern, trap.Why)
				}
			}
		}
	}
	for _, src := range []string{"typed", "answer", "rejection", "outcome", "inferred", "tool"} {
		t.Logf("%-9s found %d of %d (active %d, drafted %d; in the person's words %d)", src, s.found[src], s.facts[src], s.active[src], s.drafted[src], s.stated[src])
	}
	t.Logf("typed, answer, rejection and outcome evidence: found %d of %d (active %d, drafted %d); %d candidates, %d state no labelled fact; traps active %d",
		s.sum(s.found), s.sum(s.facts), s.sum(s.active), s.sum(s.drafted), s.candidates, s.unmatched, s.trapsActive)
	if got := s.sum(s.found); got < minFound {
		t.Errorf("found %d facts from typed, answer, rejection and outcome evidence, want at least %d", got, minFound)
	}
	if s.unmatched > maxUnmatched {
		t.Errorf("%d candidates state no labelled fact, want at most %d", s.unmatched, maxUnmatched)
	}
}

// personSaid gathers what the person said in d, as the worker does.
func personSaid(d *transcript.Digest) *provenance.Said {
	var ss []provenance.Statement
	for at, text := range d.Said() {
		ss = append(ss, provenance.Statement{Text: text, At: at})
	}
	return provenance.NewSaid(ss...)
}
