package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// TestUIChecker: the page's checker verifies on the project's repository
// (a file moved and not committed is found by its content), re-anchors at
// HEAD, and records the verdict where 'mnemo verify' keeps it.
func TestUIChecker(t *testing.T) {
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
	run := func(args ...string) {
		t.Helper()
		var errOut bytes.Buffer
		if code := Run(context.Background(), args, &IOStreams{In: strings.NewReader(""), Out: new(bytes.Buffer), ErrOut: &errOut}); code != 0 {
			t.Fatalf("mnemo %v: %s", args, errOut.String())
		}
	}
	git("init", "-q")
	run("init", "--no-agent")
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	run("add", "-n", "deploy", "-f", "scripts/deploy.sh", "-d", "Deploy with the deploy script", "Run `scripts/deploy.sh` from a clean tree.")
	os.MkdirAll(filepath.Join(root, "bin"), 0o755)
	if err := os.Rename(filepath.Join(root, "scripts", "deploy.sh"), filepath.Join(root, "bin", "deploy.sh")); err != nil {
		t.Fatal(err)
	}

	f := NewFactory(&IOStreams{In: strings.NewReader(""), Out: new(bytes.Buffer), ErrOut: new(bytes.Buffer)})
	ctx := context.Background()
	v, err := f.Vault(false)
	if err != nil {
		t.Fatal(err)
	}
	m, err := v.Load("deploy")
	if err != nil {
		t.Fatal(err)
	}
	c := uiChecker{f}
	res := c.Check(ctx, m)
	if res.State != staleness.Suspect || res.Renames["scripts/deploy.sh"] != "bin/deploy.sh" {
		t.Fatalf("Check = %+v, want the move to bin/deploy.sh found", res)
	}
	followed := staleness.Follow(m, "scripts/deploy.sh", "bin/deploy.sh")
	if got := c.Check(ctx, followed); got.State != staleness.Fresh {
		t.Errorf("Check after following = %+v, want fresh", got)
	}
	os.WriteFile(filepath.Join(root, "bin", "deploy.sh"), []byte("#!/bin/sh\nmake release\n"), 0o755)
	re, changed := c.Reanchor(ctx, followed)
	if !changed || re.Anchors.Files[0].SHA256 == followed.Anchors.Files[0].SHA256 {
		t.Errorf("Reanchor = %+v, %v; want the new content's hash", re.Anchors, changed)
	}
	if err := c.Record(ctx, "project", "deploy", c.Check(ctx, re)); err != nil {
		t.Fatal(err)
	}
	p, _ := f.Project()
	db, err := index.Open(ctx, filepath.Join(p.StateDir(), index.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	vs, _ := db.Verdicts(ctx)
	if got := vs[index.Key{Source: "project", Name: "deploy"}]; got.State != string(staleness.Fresh) {
		t.Errorf("recorded verdict = %+v, want fresh", got)
	}
}
