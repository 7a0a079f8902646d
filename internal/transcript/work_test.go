package transcript

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestWork(t *testing.T) {
	tests := []struct {
		file string
		want Work
	}{
		{"compaction.jsonl", Work{Prompts: 4, Calls: 9, Edits: 2, Failures: 1}},
		{"evidence/answers.jsonl", Work{Prompts: 1, Answers: 3, Calls: 2}},
		{"evidence/rejection.jsonl", Work{Prompts: 2, Rejections: 2, Calls: 4, Edits: 1}},
		{"evidence/agents.jsonl", Work{Prompts: 2, Calls: 7, Edits: 2, Failures: 1}},
	}
	for _, tt := range tests {
		main := filepath.Join("testdata", tt.file)
		agents, err := SubagentFiles(main)
		if err != nil {
			t.Fatal(err)
		}
		if got := digestFiles(t, Options{}, append([]string{main}, agents...)...).Work(); got != tt.want {
			t.Errorf("Work() of %s = %+v, want %+v", tt.file, got, tt.want)
		}
	}
}

func TestAnswers(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "evidence", "answers.jsonl"))
	var got []string
	for _, c := range d.calls() {
		got = append(got, c.Answers()...)
	}
	if want := "Credo + Dialyxir + mix_audit|credo, deps.audit|config/credo.exs"; strings.Join(got, "|") != want {
		t.Errorf("Answers = %q, want %q", got, want)
	}
}

// TestChosen: what the person said in answers is the answer, with the
// descriptions of the options they picked apart, never the options they
// left.
func TestChosen(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "evidence", "answers.jsonl"))
	var got []string
	for _, c := range d.calls() {
		for _, ch := range c.Chosen() {
			got = append(got, ch.Answer+" / "+ch.Described)
		}
	}
	want := "Credo + Dialyxir + mix_audit / Skip Sobelow (Phoenix security scanner)|" +
		"credo, deps.audit / style\nvulnerable deps|" +
		"config/credo.exs / with the other config"
	if strings.Join(got, "|") != want {
		t.Errorf("Chosen = %q, want %q", got, want)
	}
	for _, tt := range []struct {
		answer, label string
		want          bool
	}{{"credo, deps.audit", "deps.audit", true}, {"credo", "cred", false}, {"Yes", "yes", true}, {"x", "", false}} {
		if got := chosen(tt.answer, tt.label); got != tt.want {
			t.Errorf("chosen(%q, %q) = %v, want %v", tt.answer, tt.label, got, tt.want)
		}
	}
}
