package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestForget(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/use-yarn.md":   mem("use-yarn", "project", "The frontend uses yarn", "Run yarn install."),
		".memory/use-pnpm.md":   mem("use-pnpm", "project", "The frontend uses pnpm", "Run pnpm install."),
		".memory/old-deploy.md": mem("old-deploy", "project", "Deploys go out by hand from a laptop", "Run deploy.sh with the release key."),
	})
	original := f.read(".memory/old-deploy.md")
	var out struct {
		Action  string `json:"action"`
		MovedTo string `json:"moved_to"`
	}
	f.ok("forget", map[string]any{"name": "old-deploy", "reason": "CI deploys now"}, &out)
	if out.Action != "moved_out" || f.exists(".memory/old-deploy.md") {
		t.Fatalf("forget = %+v; the file is still in the vault: %v", out, f.exists(".memory/old-deploy.md"))
	}
	if data, err := os.ReadFile(out.MovedTo); err != nil || string(data) != original || !strings.HasPrefix(out.MovedTo, filepath.Join(f.state, "forgotten")) {
		t.Errorf("the forgotten copy at %s: %v; want the file's bytes kept in the state folder", out.MovedTo, err)
	}
	var rec struct {
		Name, Reason, File, Source string
	}
	data, _ := os.ReadFile(filepath.Join(f.state, "forgotten.jsonl"))
	if err := json.Unmarshal(data, &rec); err != nil || rec.Name != "old-deploy" || rec.Reason != "CI deploys now" || rec.File != out.MovedTo {
		t.Errorf("forgotten.jsonl = %s (%v)", data, err)
	}
	if strings.Contains(f.read(".memory/MEMORY.md"), "old-deploy") {
		t.Error("MEMORY.md still lists the forgotten memory")
	}
	var r recallOut
	f.ok("recall", map[string]any{"query": "deploy laptop release key"}, &r)
	if len(r.Memories) != 0 {
		t.Errorf("recall still finds %v", r.names())
	}

	// With superseded_by the memory stays, marked.
	f.ok("forget", map[string]any{"name": "use-yarn", "reason": "moved to pnpm", "superseded_by": "use-pnpm"}, &out)
	m := f.load("use-yarn")
	if out.Action != "superseded" || m.Status != "superseded" || m.SupersededBy != "use-pnpm" || !strings.Contains(m.Why, "moved to pnpm") {
		t.Errorf("forget with superseded_by = %+v; memory %+v", out, m.Header)
	}
	if strings.Contains(f.read(".memory/MEMORY.md"), "[use-yarn]") {
		t.Error("MEMORY.md still lists the superseded memory")
	}

	tests := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "use-pnpm", "reason": "  "}, "forget needs a reason"},
		{map[string]any{"name": "old-deploy", "reason": "again"}, "no such memory"},
		{map[string]any{"name": "use-pnpm", "reason": "x", "superseded_by": "nothing-here"}, "superseded_by"},
		{map[string]any{"name": "use-pnpm", "reason": "x", "superseded_by": "use-pnpm"}, "itself"},
		{map[string]any{"name": "../etc/passwd", "reason": "x"}, "not a memory name"},
	}
	for _, tt := range tests {
		if got := f.fail("forget", tt.args); !strings.Contains(got, tt.want) {
			t.Errorf("forget(%v) error = %q, want it to mention %q", tt.args, got, tt.want)
		}
	}
}

// TestForgetKeepsNoSecret: a memory a teammate committed with a secret in
// it, forgotten, is kept out of the vault without the secret: what mnemo
// keeps of a removed memory holds no secret either.
func TestForgetKeepsNoSecret(t *testing.T) {
	token := "ghp_" + strings.Repeat("a1B2", 9) // joined, so no whole token is in this file
	f := newFixture(t, map[string]string{
		".memory/ci-token.md": mem("ci-token", "project", "The CI token of the release job", "Use "+token+" in the release job."),
	})
	var out struct {
		MovedTo string `json:"moved_to"`
	}
	f.ok("forget", map[string]any{"name": "ci-token", "reason": "it held the token " + token}, &out)
	kept, err := os.ReadFile(out.MovedTo)
	if err != nil || !strings.Contains(string(kept), "in the release job") {
		t.Fatalf("the forgotten copy at %s: %v\n%s", out.MovedTo, err, kept)
	}
	records, _ := os.ReadFile(filepath.Join(f.state, "forgotten.jsonl"))
	for file, data := range map[string][]byte{out.MovedTo: kept, "forgotten.jsonl": records} {
		if strings.Contains(string(data), token) {
			t.Errorf("%s holds the secret:\n%s", file, data)
		}
	}
}
