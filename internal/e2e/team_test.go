package e2e

import (
	"encoding/json"
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
	t.Parallel()
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

// remember runs a real session in s whose scripted model remembers fact
// (the prompt states it, so it is the person's) and returns what the tool
// answered.
func remember(t *testing.T, s *sandbox, model *fakeapi.Model, desc, fact, confidence string) string {
	t.Helper()
	model.Push(
		fakeapi.Reply{ToolName: "mcp__mnemo__remember", ToolInput: `{"description":"` + desc + `","fact":"` + fact + `","type":"project","confidence":` + confidence + `}`},
		fakeapi.Reply{Text: "Remembered."},
	)
	s.claudeP("Remember that "+fact, "--allowedTools", "mcp__mnemo__remember")
	return toolResultOf(t, model.Requests(), "mcp__mnemo__remember")
}

// TestTeamThroughGit is the scenario: two users, two homes, two
// clones of one repository through a bare remote; each works real
// sessions that add memories, they push, pull and merge (MEMORY.md
// changed on both sides), and one rejects a draft. Afterwards no
// committed file holds a machine path, no backup is in the tree, both see
// and recall every memory, the rejected fact is proposed again to no one
// without the rejection (to the other side, stated after it, it waits for
// review naming it), and a session that only recalled leaves git status clean.
func TestTeamThroughGit(t *testing.T) {
	t.Parallel()
	ma, mb := fakeapi.New(t), fakeapi.New(t)
	alice, bob := newSandbox(t, ma), newSandbox(t, mb)
	for _, s := range []*sandbox{alice, bob} {
		s.setenv("MNEMO_WORKER=off")
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	alice.run("git", "init", "-q", "--bare", remote)
	alice.mnemoRun("init")
	if got := remember(t, alice, ma, "The API listens on 8123", "the API server listens on port 8123 (quokka-a).", "0.95"); !strings.Contains(got, `"action":"added"`) {
		t.Fatalf("alice's remember = %.500s", got)
	}
	alice.run("git", "add", "-A")
	alice.run("git", "commit", "-q", "-m", "alice: api port")
	alice.run("git", "push", "-q", remote, "HEAD:main")

	bob.run("git", "pull", "-q", remote, "main")
	bob.mnemoRun("init")
	remember(t, bob, mb, "Staging deploys run at noon", "staging deploys run every day at noon UTC (quokka-b).", "0.95")
	bob.run("git", "add", "-A")
	bob.run("git", "commit", "-q", "-m", "bob: staging")

	remember(t, alice, ma, "The cache keeps entries five minutes", "the response cache keeps entries for five minutes (quokka-c).", "0.95")
	drafted := remember(t, alice, ma, "Feature flags live in flags.yaml", "feature flags are read from config/flags.yaml at boot (quokka-r).", "0.5")
	if !strings.Contains(drafted, "draft") && !strings.Contains(drafted, "inbox") {
		t.Fatalf("a low-confidence remember was not drafted: %.500s", drafted)
	}
	var drafts []struct{ Name string }
	if err := json.Unmarshal([]byte(alice.mnemoRun("inbox", "--json")), &drafts); err != nil || len(drafts) != 1 {
		t.Fatalf("alice's inbox = %+v (%v)", drafts, err)
	}
	alice.mnemoRun("reject", drafts[0].Name, "--reason", "flags moved to the service")
	alice.run("git", "add", "-A")
	alice.run("git", "commit", "-q", "-m", "alice: cache, a rejection")
	alice.run("git", "push", "-q", remote, "HEAD:main")

	// Both changed MEMORY.md: the merge driver merges it.
	bob.run("git", "pull", "-q", "--no-rebase", remote, "main")
	bob.run("git", "push", "-q", remote, "HEAD:main")
	alice.run("git", "pull", "-q", "--no-rebase", remote, "main")

	for _, s := range []*sandbox{alice, bob} {
		index, _ := os.ReadFile(filepath.Join(s.project, ".memory", "MEMORY.md"))
		for _, want := range []string{"8123", "noon", "five minutes"} {
			if !strings.Contains(string(index), want) {
				t.Errorf("%s's MEMORY.md lacks %q:\n%s", s.project, want, index)
			}
		}
		if strings.Contains(string(index), "<<<<<<<") {
			t.Errorf("%s's MEMORY.md holds a conflict:\n%s", s.project, index)
		}
		for _, q := range []string{"quokka-a", "quokka-b", "quokka-c"} {
			if got := s.mnemoRun("recall", q); !strings.Contains(got, q) {
				t.Errorf("recall %s in %s = %s", q, s.project, got)
			}
		}
		tracked := s.run("git", "ls-files")
		for _, f := range strings.Fields(tracked) {
			data, _ := os.ReadFile(filepath.Join(s.project, f))
			for _, machine := range []string{alice.home, bob.home, alice.project, bob.project, filepath.Dir(s.mnemo)} {
				if strings.Contains(string(data), machine) {
					t.Errorf("committed %s holds the machine path %s", f, machine)
				}
			}
			if strings.HasSuffix(f, ".bak") {
				t.Errorf("a backup is committed: %s", f)
			}
		}
		if untracked := s.run("git", "status", "--porcelain", "--untracked-files=all"); untracked != "" {
			t.Errorf("%s is not clean after the merge:\n%s", s.project, untracked)
		}
	}

	// Alice's rejection is evidence to bob, not a veto over what he says
	// after it: stated by him, the fact waits in his inbox, her rejection
	// named as the reason. To alice, her own rejection keeps it out.
	if got := remember(t, bob, mb, "Feature flags live in flags.yaml", "feature flags are read from config/flags.yaml at boot (quokka-r).", "0.5"); !strings.Contains(got, `"action":"drafted"`) || !strings.Contains(got, "flags moved to the service") {
		t.Errorf("bob's remember of what alice rejected, stated after = %.500s, want it drafted, naming her rejection", got)
	}
	if inbox := bob.mnemoRun("inbox"); !strings.Contains(inbox, `(said "Feature flags live in flags.yaml"; reason: "flags moved to the service")`) {
		t.Errorf("bob's inbox does not name alice's rejection:\n%s", inbox)
	}
	if got := remember(t, alice, ma, "Feature flags live in flags.yaml", "feature flags are read from config/flags.yaml at boot (quokka-r).", "0.5"); !strings.Contains(got, "the user rejected a draft saying this before") {
		t.Errorf("alice's remember of what she rejected = %.500s, want it not written", got)
	}
	if inbox := alice.mnemoRun("inbox"); strings.Contains(inbox, "flags") {
		t.Errorf("alice's inbox proposes what she rejected:\n%s", inbox)
	}

	// A session that only recalls changes nothing git tracks.
	mb.Push(fakeapi.Reply{ToolName: "mcp__mnemo__recall", ToolInput: `{"query":"staging deploys"}`}, fakeapi.Reply{Text: "Noon."})
	bob.claudeP("When do staging deploys run?", "--allowedTools", "mcp__mnemo__recall")
	if st := bob.run("git", "status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("a session that only recalled changed the tree:\n%s", st)
	}
}
