package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
)

// TestRememberTeamRejected: what the user said in this session, that a
// teammate's rejection (committed in the vault months ago) matches, is
// drafted for review, and the agent is told whose rejection it repeats;
// the same rejection made by this person, in the state folder, keeps it
// out, and the agent is told it was theirs.
func TestRememberTeamRejected(t *testing.T) {
	const line = `{"name":"we-deploy-with-make-deploy","description":"We deploy with make deploy","body":"We deploy with make deploy.","reason":"we use ansible","by":"alice","at":"2026-06-01T09:00:00Z"}` + "\n"
	tests := []struct {
		kind       string
		file       func(f *fixture) string // where the rejection is recorded
		wantAction string
		wantText   string
	}{
		{"a teammate's", func(f *fixture) string { return filepath.Join(f.root, ".memory", consolidate.TeamRejections) },
			"drafted", `rejected by alice on 2026-06-01 (said "We deploy with make deploy"; reason: "we use ansible")`},
		{"own", func(f *fixture) string { return filepath.Join(f.state, "rejected.jsonl") },
			"not_written", "not written: the user rejected a draft saying this before (said \"We deploy with make deploy\")"},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			f := newFixture(t, nil, "CLAUDE_CODE_SESSION_ID="+session)
			path := tt.file(f)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
				t.Fatal(err)
			}
			f.prompt(session, "Remember that we deploy with make deploy now.")
			var out rememberOut
			text := f.ok("remember", map[string]any{"description": "We deploy with make deploy now", "fact": "We deploy with make deploy now."}, &out)
			if out.Action != tt.wantAction || !strings.Contains(text, tt.wantText) {
				t.Errorf("remember(what the user said) after %s rejection = %s: %q, want %s, saying %q", tt.kind, out.Action, text, tt.wantAction, tt.wantText)
			}
		})
	}
}
