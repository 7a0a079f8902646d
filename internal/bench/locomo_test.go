package bench

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

func TestParseEvidence(t *testing.T) {
	exists := map[string]bool{"D1:1": true, "D1:2": true, "D2:2": true, "D30:5": true, "D8:6": true, "D9:17": true}
	tests := []struct {
		raw  []string
		want []string
	}{
		{[]string{"D1:1"}, []string{"D1:1"}},
		{[]string{"D8:6; D9:17"}, []string{"D8:6", "D9:17"}},
		{[]string{"D30:05"}, []string{"D30:5"}},
		{[]string{"D:1:2"}, []string{"D1:2"}},
		{[]string{"D1:1", "D1:1, D2:2"}, []string{"D1:1", "D2:2"}},
		{[]string{"D9:9", "nonsense", ""}, nil},
	}
	for _, tt := range tests {
		if got := parseEvidence(tt.raw, exists); !slices.Equal(got, tt.want) {
			t.Errorf("parseEvidence(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestScorer(t *testing.T) {
	sc := newScorer([]int{1, 3})
	sc.add(Question{Category: 4, Evidence: []string{"D1:1"}}, []string{"D1:1", "D1:2"})
	sc.add(Question{Category: 1, Evidence: []string{"D1:2", "D2:2"}}, []string{"D2:2", "D1:1", "D1:2"})
	sc.add(Question{Category: 1, Evidence: []string{"D3:3"}}, nil)
	r := sc.report()
	want := map[string]float64{"r@1": 50, "r@3": 66.7} // (1 + 0.5 + 0)/3, (1 + 1 + 0)/3
	if !maps.Equal(r.Overall, want) {
		t.Errorf("Overall = %v, want %v", r.Overall, want)
	}
	if got, want := r.ByCategory["1"], map[string]float64{"r@1": 25, "r@3": 50}; !maps.Equal(got, want) {
		t.Errorf("ByCategory[1] = %v, want %v", got, want)
	}
	if r.Questions != 3 || r.CategoryQuestions["1"] != 2 || r.CategoryQuestions["4"] != 1 {
		t.Errorf("Questions = %d, by category %v; want 3, {1: 2, 4: 1}", r.Questions, r.CategoryQuestions)
	}
}

// TestLoCoMoTiny runs the whole benchmark on a hand-made file whose
// answers are known: each question but one names words found only in its
// evidence turns, so the scores follow from the metric alone.
func TestLoCoMoTiny(t *testing.T) {
	convs, err := LoadLoCoMo("testdata/locomo-tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(convs[0].Sessions); n != 2 {
		t.Fatalf("sessions = %d, want 2 (a date without turns is not a session)", n)
	}
	r, err := RunLoCoMo(context.Background(), convs, LoCoMoOptions{Ks: []int{1, 5}, Config: recall.DefaultConfig(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// R@1: greyhound 1, cello+teacher 1/2, sister 1, medal 1, zebra 0 = 3.5/5.
	// R@5: 1 + 1 + 1 + 1 + 0 = 4/5.
	if want := map[string]float64{"r@1": 70, "r@5": 80}; !maps.Equal(r.Overall, want) {
		t.Errorf("Overall = %v, want %v", r.Overall, want)
	}
	wantCat := map[string]map[string]float64{
		"1": {"r@1": 50, "r@5": 100}, "3": {"r@1": 100, "r@5": 100},
		"4": {"r@1": 100, "r@5": 100}, "5": {"r@1": 0, "r@5": 0},
	}
	for c, want := range wantCat {
		if got := r.ByCategory[c]; !maps.Equal(got, want) {
			t.Errorf("ByCategory[%s] = %v, want %v", c, got, want)
		}
	}
	if r.Questions != 5 || r.Turns != 6 {
		t.Errorf("Questions = %d, Turns = %d; want 5 and 6", r.Questions, r.Turns)
	}
}
