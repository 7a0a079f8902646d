package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// editingReader answers the [y/N] question, but first edits the memory as
// a person in another terminal (or another writer) would while the
// question waits.
type editingReader struct {
	t    *testing.T
	path string
	done bool
}

func (r *editingReader) Read(p []byte) (int, error) {
	if !r.done {
		r.done = true
		data, err := os.ReadFile(r.path)
		if err != nil {
			r.t.Error(err)
		}
		edited := strings.Replace(string(data), "from a clean tree.", "from a clean tree, after the freeze.", 1)
		if err := os.WriteFile(r.path, []byte(edited), 0o644); err != nil {
			r.t.Error(err)
		}
	}
	return copy(p, "y\n"), nil
}

// TestVerifyFixKeepsEditWhileAsking: verify --fix asks outside the lock,
// so an edit made while it waits for the answer is kept and the fix is not
// written over it.
func TestVerifyFixKeepsEditWhileAsking(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MNEMO_HOME", filepath.Join(dir, "home", ".mnemo"))
	t.Setenv("HOME", filepath.Join(dir, "home"))
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(dir, "gitconfig"))
	for _, kv := range [][2]string{{"GIT_AUTHOR_NAME", "t"}, {"GIT_AUTHOR_EMAIL", "t@t"}, {"GIT_COMMITTER_NAME", "t"}, {"GIT_COMMITTER_EMAIL", "t@t"}} {
		t.Setenv(kv[0], kv[1])
	}
	root := filepath.Join(dir, "proj")
	os.MkdirAll(filepath.Join(root, "scripts"), 0o755)
	os.WriteFile(filepath.Join(root, "scripts", "deploy.sh"), []byte("#!/bin/sh\nmake deploy\n"), 0o755)
	t.Chdir(root)
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run := func(in *IOStreams, args ...string) (int, string) {
		t.Helper()
		var errOut bytes.Buffer
		in.Out, in.ErrOut = new(bytes.Buffer), &errOut
		return Run(context.Background(), args, in), errOut.String()
	}
	git("init", "-q")
	if code, errs := run(&IOStreams{In: strings.NewReader("")}, "init", "--no-agent"); code != 0 {
		t.Fatal(errs)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	if code, errs := run(&IOStreams{In: strings.NewReader("")}, "add", "-n", "deploy", "-f", "scripts/deploy.sh",
		"-d", "Deploy with the deploy script", "Run `scripts/deploy.sh` from a clean tree."); code != 0 {
		t.Fatal(errs)
	}
	git("mv", "scripts/deploy.sh", "scripts/release.sh")
	git("commit", "-q", "-m", "rename")

	path := filepath.Join(root, ".memory", "deploy.md")
	code, errs := run(&IOStreams{In: &editingReader{t: t, path: path}}, "verify", "deploy", "--fix")
	if code != 1 || !strings.Contains(errs, "changed while the fix waited") {
		t.Errorf("verify --fix with an edit while asking: exit %d, stderr:\n%s\nwant exit 1 saying the memory changed", code, errs)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "after the freeze") {
		t.Errorf("the edit made while verify --fix asked was lost:\n%s", data)
	}
}
