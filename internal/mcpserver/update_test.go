package mcpserver_test

import (
	"strings"
	"testing"
)

func TestUpdate(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/deploy-on-tuesdays.md": mem("deploy-on-tuesdays", "project", "Deploys go out on Tuesdays only",
			"The release train leaves Tuesday 10:00 UTC.", "owner: ops\n"),
		".memory/auth-lives-in-auth.md": mem("auth-lives-in-auth", "project", "Authentication lives in internal/auth",
			"See `internal/auth/service.go`.", "anchors:\n  files:\n    - path: internal/auth/service.go\n      sha256: 0000000000000000\n"),
		"internal/auth/service.go": "package auth\n",
	})
	// The person's words that state the changes below: a value an agent
	// changes without them waits for review (TestAgentChangeIsProposed).
	f.prompt("s", "The release train leaves Wednesday from next week on.")
	f.prompt("s", "Authentication lives in internal/auth since 2026-09.")
	var out struct {
		Changed []string `json:"changed"`
		Vault   string   `json:"vault"`
	}
	f.ok("update", map[string]any{"name": "deploy-on-tuesdays", "content": "The release train leaves Wednesday from next week on.", "confidence": 0.8}, &out)
	if strings.Join(out.Changed, ",") != "body,confidence" || out.Vault != "project" {
		t.Errorf("update changed %v in %s, want body,confidence in project", out.Changed, out.Vault)
	}
	m := f.load("deploy-on-tuesdays")
	if !strings.Contains(m.Body, "Wednesday from the week of 2026-12-07 on") || m.Confidence != 0.8 || !m.Updated.Equal(now) || m.Description != "Deploys go out on Tuesdays only" {
		t.Errorf("after update: %+v %q", m.Header, m.Body)
	}
	if !strings.Contains(f.read(".memory/deploy-on-tuesdays.md"), "owner: ops") {
		t.Error("update dropped a header key mnemo does not own")
	}

	// Updating a stale memory re-anchors it to the file as it is now.
	var rec recallOut
	f.ok("update", map[string]any{"name": "auth-lives-in-auth", "description": "Authentication lives in internal/auth since 2026-09"}, nil)
	f.ok("recall", map[string]any{"query": "authentication"}, &rec)
	if len(rec.Memories) == 0 || len(rec.Memories[0].Stale) != 0 {
		t.Errorf("after update the memory is still stale: %+v", rec.Memories)
	}

	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "deploy-on-tuesdays"}, "nothing to change"},
		{map[string]any{"name": "no-such-memory", "fact": "x"}, `no such memory named "no-such-memory"`},
		{map[string]any{"name": "deploy-on-tuesdays", "files": []string{"missing.go"}}, "missing.go"},
		{map[string]any{"name": "deploy-on-tuesdays", "description": strings.Repeat("long ", 40)}, "at most 150"},
		{map[string]any{"fact": "x"}, "name"},
	}
	for _, tt := range tests {
		if got := f.fail("update", tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("update(%v) error = %q, want it to mention %q", tt.args, got, tt.want)
		}
	}
}
