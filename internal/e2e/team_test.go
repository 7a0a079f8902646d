package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
)

// TestTeammateCloneLoadsItsOwnVault: alice runs mnemo init, writes a
// memory, commits and pushes, and her checkout goes away (another
// machine). Bob clones with his own home: the committed files hold no path
// of alice's; a real Claude Code session in his clone, before and after his
// own mnemo init, gets his clone's vault (the hooks run mnemo from PATH,
// then his settings.local.json points Claude Code at his .memory) and
// creates nothing at alice's path.
func TestTeammateCloneLoadsItsOwnVault(t *testing.T) {
	model := fakeapi.New(t)
	alice := newSandbox(t, model)
	remote := filepath.Join(t.TempDir(), "remote.git")
	alice.run("git", "init", "-q", "--bare", remote)
	alice.mnemoRun("init")
	alice.mnemoRun("add", "--type", "project", "-n", "api-port", "-d", "The API listens on port 8123 (quokka-port-5)", "The API server listens on 8123.")
	alice.run("git", "add", "-A")
	alice.run("git", "commit", "-q", "-m", "mnemo")
	alice.run("git", "push", "-q", remote, "HEAD:main")
	if err := os.RemoveAll(alice.project); err != nil {
		t.Fatal(err)
	}

	bob := newSandbox(t, model)
	bob.run("git", "pull", "-q", remote, "main")
	for _, f := range []string{".claude/settings.json", ".mcp.json", ".memory/MEMORY.md", ".gitattributes"} {
		data, err := os.ReadFile(filepath.Join(bob.project, f))
		if err != nil {
			t.Fatalf("the clone has no %s: %v", f, err)
		}
		if strings.Contains(string(data), alice.home) || strings.Contains(string(data), alice.project) || strings.Contains(string(data), filepath.Dir(alice.mnemo)) {
			t.Errorf("committed %s holds a path of alice's machine:\n%s", f, data)
		}
	}
	// Before bob runs init: the committed hooks alone bring the vault.
	n := len(model.Requests())
	bob.claudeP("Hello there")
	if reqs := model.Requests(); len(reqs) <= n || !strings.Contains(reqs[n], "quokka-port-5") {
		t.Errorf("bob's first session (no init yet) does not carry the vault's index line")
	}
	if _, err := os.Stat(alice.project); err == nil {
		t.Fatalf("bob's session created %s, alice's checkout", alice.project)
	}

	bob.mnemoRun("init")
	if st := bob.run("git", "status", "--porcelain"); st != "" {
		t.Errorf("bob's init changed tracked files or left untracked ones:\n%s", st)
	}
	local, err := os.ReadFile(filepath.Join(bob.project, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(local), filepath.Join(bob.project, ".memory")) {
		t.Errorf("bob's settings.local.json = %s (%v), want his own vault", local, err)
	}

	n = len(model.Requests())
	bob.claudeP("Hello again")
	reqs := model.Requests()
	if len(reqs) <= n {
		t.Fatal("the fake model got no request")
	}
	if !strings.Contains(reqs[n], "quokka-port-5") {
		t.Errorf("bob's session does not carry the vault's index line:\n%.3000s", reqs[n])
	}
	if _, err := os.Stat(alice.project); err == nil {
		t.Errorf("bob's session created %s, alice's checkout", alice.project)
	}
	if st := bob.run("git", "status", "--porcelain"); st != "" {
		t.Errorf("sessions that only recalled changed the tree:\n%s", st)
	}
	if log := bob.stateLog(); strings.Contains(log, "level=ERROR") {
		t.Errorf("a hook logged an error:\n%s", log)
	}
}
