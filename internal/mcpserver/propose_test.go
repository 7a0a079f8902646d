package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentChangeIsProposed: an agent's change to what a memory claims
// (its description or body, through update or the memory tool) that the
// person's words of the session do not state waits for review as a
// proposed change, linked to the memory; the memory keeps its text and
// its provenance (a person's memory stays theirs). What the person said
// is applied in place. Several kinds: a host, a port, an environment.
func TestAgentChangeIsProposed(t *testing.T) {
	const file = ".memory/staging-db.md"
	const said = "The staging database host is db-staging.internal on port 5432"
	tests := []struct {
		name, tool string
		args       map[string]any
		value      string // what the change brings
		prompt     string // the person's words that state it
	}{
		{"update: another host", "update", map[string]any{"name": "staging-db", "description": "Staging database host is db-evil.internal on port 5432"},
			"db-evil.internal", "The staging database host is now db-evil.internal on port 5432, update the memory."},
		{"update: another port", "update", map[string]any{"name": "staging-db", "fact": "Connect to db-staging.internal:6543 for staging."},
			"6543", "Staging moved: connect to db-staging.internal:6543 for staging."},
		{"update: another environment", "update", map[string]any{"name": "staging-db", "description": "Production database host is db-staging.internal on port 5432"},
			"Production database", "The production database host is db-staging.internal on port 5432, fix the memory."},
		{"memory tool: another port", "memory", map[string]any{"command": "str_replace", "path": "/memories/staging-db.md", "old_str": "db-staging.internal:5432 for", "new_str": "db-staging.internal:6543 for"},
			"6543", "Staging moved: connect to db-staging.internal:6543 for staging."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, map[string]string{file: mem("staging-db", "project", said, "Connect to db-staging.internal:5432 for staging.")}, "CLAUDE_CODE_SESSION_ID="+session)
			before := f.read(file)
			f.prompt(session, "Can you tidy the staging memory?")
			f.ok(tt.tool, tt.args, nil)
			if got := f.read(file); got != before {
				t.Errorf("the memory changed without the person's words:\n%s", got)
			}
			drafts := f.drafts()
			if len(drafts) != 1 {
				t.Fatalf("drafts = %v, want the proposed change", drafts)
			}
			data, _ := os.ReadFile(filepath.Join(f.state, "inbox", drafts[0]+".md"))
			if !strings.Contains(string(data), tt.value) || !strings.Contains(string(data), "source: agent") {
				t.Errorf("the proposal does not hold the change as the agent's:\n%s", data)
			}
			links, _ := os.ReadFile(filepath.Join(f.state, "links.jsonl"))
			if !strings.Contains(string(links), `"memory":"staging-db"`) {
				t.Errorf("the proposal is not linked to staging-db: %s", links)
			}

			// Said by the person, it is applied in place.
			g := newFixture(t, map[string]string{file: mem("staging-db", "project", said, "Connect to db-staging.internal:5432 for staging.")}, "CLAUDE_CODE_SESSION_ID="+session)
			g.prompt(session, tt.prompt)
			g.ok(tt.tool, tt.args, nil)
			if got := g.read(file); !strings.Contains(got, tt.value) {
				t.Errorf("the change the person stated was not applied:\n%s", got)
			}
		})
	}
}
