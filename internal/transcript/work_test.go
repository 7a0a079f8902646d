package transcript

import (
	"path/filepath"
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
