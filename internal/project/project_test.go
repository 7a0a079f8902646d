package project

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func testEnv(t *testing.T) Env {
	home := t.TempDir()
	return Env{Home: home, Getenv: func(k string) string {
		if k == "MNEMO_HOME" {
			return filepath.Join(home, "mh")
		}
		return ""
	}}
}

func TestFind(t *testing.T) {
	ctx := context.Background()
	env := testEnv(t)
	repo := t.TempDir()
	git(t, repo, "init", "-q")
	sub := filepath.Join(repo, "a", "b")
	os.MkdirAll(sub, 0o755)

	p, err := Find(ctx, sub, env)
	if err != nil {
		t.Fatal(err)
	}
	realRepo, _ := filepath.EvalSymlinks(repo)
	if p.Root != realRepo || !p.InGit() {
		t.Errorf("Find(sub).Root = %q (in git %v), want %q", p.Root, p.InGit(), realRepo)
	}
	if got := p.SharedVaultDir(); got != filepath.Join(realRepo, ".memory") {
		t.Errorf("SharedVaultDir = %q", got)
	}
	if p.Head(ctx) != "" {
		t.Errorf("Head before the first commit = %q, want empty", p.Head(ctx))
	}

	// A worktree shares the state folder of its repository.
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "first")
	if len(p.Head(ctx)) != 40 {
		t.Errorf("Head = %q, want a commit", p.Head(ctx))
	}
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, repo, "worktree", "add", "-q", wt)
	pw, err := Find(ctx, wt, env)
	if err != nil {
		t.Fatal(err)
	}
	if pw.Root == p.Root {
		t.Errorf("worktree root = repository root %q", pw.Root)
	}
	if pw.StateDir() != p.StateDir() {
		t.Errorf("worktree StateDir = %q, want the repository's %q", pw.StateDir(), p.StateDir())
	}
	if filepath.Dir(filepath.Dir(p.StateDir())) != filepath.Join(env.Home, "mh") {
		t.Errorf("StateDir %q is not under MNEMO_HOME", p.StateDir())
	}

	// Outside git the folder is the project.
	plain := t.TempDir()
	pp, err := Find(ctx, plain, env)
	if err != nil {
		t.Fatal(err)
	}
	if pp.InGit() || pp.Head(ctx) != "" {
		t.Errorf("Find(plain folder) is in git: %+v", pp)
	}
	if _, err := Find(ctx, filepath.Join(plain, "missing"), env); err == nil {
		t.Errorf("Find(missing folder) = nil error")
	}
}

func TestVaultDirPrefersShared(t *testing.T) {
	env := testEnv(t)
	root := t.TempDir()
	p := &Project{Root: root, env: env}
	if got := p.VaultDir(); got != p.SharedVaultDir() {
		t.Errorf("VaultDir with neither = %q, want the shared one", got)
	}
	os.MkdirAll(p.PrivateVaultDir(), 0o755)
	if got := p.VaultDir(); got != p.PrivateVaultDir() {
		t.Errorf("VaultDir with only the private one = %q", got)
	}
	os.MkdirAll(p.SharedVaultDir(), 0o755)
	if got := p.VaultDir(); got != p.SharedVaultDir() {
		t.Errorf("VaultDir with both = %q, want the shared one", got)
	}
}
