package extract

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite testdata/eval/*.jsonl from the session scripts")

// TestEvalTranscripts checks that each labelled session script has its
// transcript beside it, as Claude Code would write it; -update rewrites
// them.
func TestEvalTranscripts(t *testing.T) {
	scripts, _ := filepath.Glob("testdata/*/*.txt")
	if len(scripts) == 0 {
		t.Fatal("no session scripts in testdata/eval")
	}
	for _, path := range scripts {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := parseScript(string(src))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		want, err := s.jsonl("eval-" + strings.TrimSuffix(filepath.Base(path), ".txt"))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out := strings.TrimSuffix(path, ".txt") + ".jsonl"
		if *update {
			if err := os.WriteFile(out, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if got, _ := os.ReadFile(out); string(got) != want {
			t.Errorf("%s is not the transcript of %s: run go test -run TestEvalTranscripts -update", out, path)
		}
	}
}

// A labelledSession is a transcript and the facts planted in it.
type labelledSession struct {
	name   string
	digest *transcript.Digest
	facts  []plantedFact
}

func evalSessions(t *testing.T, set string) []labelledSession {
	t.Helper()
	scripts, _ := filepath.Glob(filepath.Join("testdata", set, "*.txt"))
	var out []labelledSession
	for _, path := range scripts {
		src, _ := os.ReadFile(path)
		s, err := parseScript(string(src))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		out = append(out, labelledSession{name, digestFile(t, filepath.Join("testdata", set, name+".jsonl")), s.facts})
	}
	return out
}

// matches reports whether c states the planted fact f: every word of f
// appears in c's description or fact.
func (f plantedFact) matches(c Candidate) bool {
	text := strings.ToLower(c.Description + "\n" + c.Fact)
	for _, w := range f.words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// A score counts an extractor's candidates against planted facts.
type score struct {
	candidates, correct int // candidates, and those that state a planted fact
	facts, found        int // planted facts, and those some candidate states
	sameCategory        int // found facts whose first matching candidate has the planted category
	autoApproved        int // candidates at or above 0.85
	wrongAutoApproved   int // of those, ones that state no planted fact
}

func (s *score) add(facts []plantedFact, cands []Candidate) (missed []plantedFact, extra, otherCategory []Candidate) {
	s.candidates += len(cands)
	s.facts += len(facts)
	for _, c := range cands {
		ok := slices.ContainsFunc(facts, func(f plantedFact) bool { return f.matches(c) })
		if ok {
			s.correct++
		} else {
			extra = append(extra, c)
		}
		if c.Confidence >= 0.85 && !c.FromToolOutput {
			s.autoApproved++
			if !ok {
				s.wrongAutoApproved++
			}
		}
	}
	for _, f := range facts {
		i := slices.IndexFunc(cands, f.matches)
		if i < 0 {
			missed = append(missed, f)
			continue
		}
		s.found++
		if cands[i].Category == f.category {
			s.sameCategory++
		} else {
			otherCategory = append(otherCategory, cands[i])
		}
	}
	return missed, extra, otherCategory
}

func (s score) String() string {
	ratio := func(a, b int) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f (%d/%d)", float64(a)/float64(b), a, b)
	}
	return fmt.Sprintf("precision %s, recall %s, category agreement %s, auto-approved %d (%d wrong)",
		ratio(s.correct, s.candidates), ratio(s.found, s.facts), ratio(s.sameCategory, s.found), s.autoApproved, s.wrongAutoApproved)
}

// TestHeuristicEval measures the heuristic extractor on the labelled
// sessions of testdata: eval, the set its rules were tuned on, and
// holdout, written afterwards and not tuned against. Precision is the
// share of candidates that state a planted fact, recall the share of
// planted facts some candidate states. The test logs the numbers and each
// miss and extra; it asserts only that nothing wrong would be approved
// automatically.
//
// The holdout set's first run found precision 0.71 (5/7) and recall 0.50
// (5/10), with one wrong automatic approval: "Don't forget to run the
// linter" was taken for "remember". That bug and "Always the same error"
// read as an instruction were fixed after; the set is otherwise untuned.
func TestHeuristicEval(t *testing.T) {
	h := NewHeuristic(Config{})
	for _, set := range []string{"eval", "holdout"} {
		t.Run(set, func(t *testing.T) {
			var total score
			sessions := evalSessions(t, set)
			for _, s := range sessions {
				cands, _, err := h.Extract(context.Background(), s.digest)
				if err != nil {
					t.Fatal(err)
				}
				missed, extra, other := total.add(s.facts, cands)
				for _, c := range other {
					t.Logf("%s: found as %s %q", s.name, c.Category, c.Description)
				}
				for _, f := range missed {
					t.Logf("%s: missed %s fact %q", s.name, f.category, f.words)
				}
				for _, c := range extra {
					t.Logf("%s: extra %s candidate %q (%.2f)", s.name, c.Category, c.Description, c.Confidence)
				}
			}
			t.Logf("heuristic on %d %s sessions: %s", len(sessions), set, total)
			if total.wrongAutoApproved > 0 {
				t.Errorf("%d candidates that state no planted fact would be approved automatically", total.wrongAutoApproved)
			}
		})
	}
}
