package mcpserver_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fake credentials in real formats, joined so that no whole one is
// written in this file.
var (
	fakeGHP      = "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	fakeAWS      = "AKIA" + "Z7QX4RW2LM9KD3PV"
	fakePassword = "Tr0ub4dor" + "&24464"
	fakeHexKey   = "9f86d081884c7d659a2feaa0" + "c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	fakeAWSOld   = "AKIA" + "Q4RW2LM9KD3PVZ7X" // in a file written before mnemo refused secrets
)

// sentSecrets are the secrets the write tests send, which no file may hold.
var sentSecrets = []string{fakeGHP, fakeAWS, fakePassword, fakeHexKey}

// TestWritesRefuseSecrets sends a secret through every tool that writes:
// each call fails with an error that names the kind and the field, and the
// secret reaches no file of the project or the state, nor a file name.
func TestWritesRefuseSecrets(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/use-pnpm.md": pnpmFile,
		// written by hand before mnemo refused secrets: rename must not copy it
		".memory/old-notes.md": mem("old-notes", "project", "Old deploy notes", "The deploy key is "+fakeAWSOld+"."),
	})
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string // in the error the agent reads
	}{
		{"remember a token in the fact", "remember", map[string]any{
			"description": "The CI token of the release job", "fact": "The release job uses " + fakeGHP + ".",
		}, "body: line 1: GitHub token: refused, secrets are never stored"},
		{"remember a prose password in the description", "remember", map[string]any{
			"description": "The admin password for the staging dashboard is " + fakePassword,
			"fact":        "Log in as admin.",
		}, "description: password: refused, secrets are never stored"},
		{"remember an AWS key in why", "remember", map[string]any{
			"description": "Deploys reach AWS as the deploy user", "fact": "The deploy job assumes deploy-prod.",
			"why": "The user pasted " + fakeAWS + " by mistake.",
		}, "why: AWS access key: refused"},
		{"remember a bare hex key", "remember", map[string]any{
			"description": "The webhook signing secret", "fact": "Webhooks are checked with\nthe signing key " + fakeHexKey + ".",
		}, "body: line 2: secret: refused"},
		{"update the body", "update", map[string]any{
			"name": "use-pnpm", "fact": "Run pnpm install.\nThe registry token is " + fakeGHP + ".",
		}, "body: line 2: GitHub token: refused"},
		{"update the description", "update", map[string]any{
			"name": "use-pnpm", "description": "root pw: " + fakePassword,
		}, "description: password: refused"},
		{"memory create", "memory", map[string]any{
			"command": "create", "path": "/memories/deploy-creds.md",
			"file_text": "# Deploy credentials\nThe deploy uses " + fakeAWS + ".\n",
		}, "AWS access key: refused, secrets are never stored"},
		{"memory create with a password in the file name's line", "memory", map[string]any{
			"command": "create", "path": "/memories/admin-login.md",
			"file_text": "the admin password is " + fakePassword + "\n",
		}, "password: refused"},
		{"memory str_replace", "memory", map[string]any{
			"command": "str_replace", "path": "/memories/use-pnpm.md", "old_str": "Never npm.", "new_str": "Token: " + fakeGHP,
		}, "body: line 2: GitHub token: refused"},
		{"memory insert", "memory", map[string]any{
			"command": "insert", "path": "/memories/use-pnpm.md", "insert_line": 6, "insert_text": "the signing key " + fakeHexKey + "\n",
		}, "body: line 2: secret: refused"},
		{"memory rename of a file holding a secret", "memory", map[string]any{
			"command": "rename", "old_path": "/memories/old-notes.md", "new_path": "/memories/deploy-notes.md",
		}, "AWS access key: refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.call(tt.tool, tt.args)
			got := textOf(res)
			if !res.IsError || !strings.Contains(got, tt.want) {
				t.Errorf("%s(%v) = %q (error %v), want an error containing %q", tt.tool, tt.args, got, res.IsError, tt.want)
			}
			for _, s := range []string{fakeGHP, fakeAWS, fakePassword, fakeHexKey, "tr0ub4dor"} {
				if strings.Contains(got, s) {
					t.Errorf("%s(%v) error %q holds the secret", tt.tool, tt.args, got)
				}
			}
		})
	}
	if got := f.read(".memory/use-pnpm.md"); got != pnpmFile {
		t.Errorf("use-pnpm.md changed:\n%s", got)
	}
	for _, gone := range []string{".memory/deploy-creds.md", ".memory/admin-login.md", ".memory/deploy-notes.md"} {
		if f.exists(gone) {
			t.Errorf("%s was written", gone)
		}
	}
	if !f.exists(".memory/old-notes.md") {
		t.Errorf("the refused rename removed old-notes.md")
	}
	for _, dir := range []string{f.root, f.home} {
		noSecrets(t, dir, sentSecrets...)
	}
}

// noSecrets fails the test for each file under dir whose name or content
// holds one of secrets.
func noSecrets(t *testing.T, dir string, secrets ...string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case strings.Contains(strings.ToLower(d.Name()), "tr0ub4dor"):
			t.Errorf("a file name holds the password: %s", path)
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds a secret (%.6s…)", path, s)
			}
		}
		return nil
	})
}

// TestForgetRecordsNoSecret: the reason a forget gives is recorded (the
// superseded memory's why, the forgotten/ record, the log); a secret in it
// never is.
func TestForgetRecordsNoSecret(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/use-pnpm.md":  pnpmFile,
		".memory/old-pnpm.md":  mem("old-pnpm", "project", "The frontend used npm", "Run npm install."),
		".memory/yarn-once.md": mem("yarn-once", "project", "The frontend used yarn once", "Run yarn."),
	})
	f.ok("forget", map[string]any{"name": "old-pnpm", "reason": "it leaked " + fakeGHP}, nil)
	f.ok("forget", map[string]any{"name": "yarn-once", "reason": "root pw: " + fakePassword, "superseded_by": "use-pnpm"}, nil)
	for _, dir := range []string{f.root, f.home} {
		noSecrets(t, dir, sentSecrets...)
	}
}

// TestRecallEchoKeepsNoSecret checks that a recall finding nothing repeats
// no secret its query held: the answer's echo of the query is redacted, as
// a failed call's text is.
func TestRecallEchoKeepsNoSecret(t *testing.T) {
	f := newFixture(t, nil)
	for _, q := range []string{"where does " + fakeGHP + " go", fakeAWS, "the admin password is " + fakePassword} {
		res := f.call("recall", map[string]any{"query": q})
		got := textOf(res)
		if !strings.Contains(got, "No memory matches") {
			t.Fatalf("recall(%q) = %q, want no match", q, got)
		}
		for _, s := range []string{fakeGHP, fakeAWS, fakePassword} {
			if strings.Contains(got, s) {
				t.Errorf("recall(%q) answered %q: it repeats the secret", q, got)
			}
		}
	}
}
