package staleness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// repo is a real git repository for the tests.
type repo struct {
	t    *testing.T
	root string
}

func newRepo(t *testing.T) *repo {
	r := &repo{t: t, root: t.TempDir()}
	r.git("init", "-q")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", r.root}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(path, content string) {
	p := filepath.Join(r.root, path)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) commit(msg string) string {
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// memoryAbout writes a memory anchored to files, at the current HEAD.
func (r *repo) memoryAbout(body string, files ...string) *memory.Memory {
	r.t.Helper()
	var abs []string
	for _, f := range files {
		abs = append(abs, filepath.Join(r.root, f))
	}
	a, err := Anchor(r.root, r.root, r.git("rev-parse", "HEAD"), abs)
	if err != nil {
		r.t.Fatal(err)
	}
	return memory.New(memory.Header{Name: "m", Description: "d", Type: memory.TypeProject,
		Updated: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC), Anchors: a}, body)
}

func (r *repo) verifier() *Verifier {
	return &Verifier{Root: r.root, InGit: true, Head: r.git("rev-parse", "HEAD"), Cache: newMapCache()}
}

func TestVerify(t *testing.T) {
	r := newRepo(t)
	r.write("internal/auth/service.go", "package auth\n\nfunc Verify() {}\n")
	r.write("scripts/deploy.sh", "#!/bin/sh\n")
	r.write("docs/a.md", "a\n")
	r.commit("first")
	ctx := context.Background()

	edited := r.memoryAbout("Auth is in `internal/auth/service.go`; call `Verify`.", "internal/auth/service.go")
	renamed := r.memoryAbout("Deploy with `scripts/deploy.sh`.", "scripts/deploy.sh")
	deleted := r.memoryAbout("Docs in docs/a.md.", "docs/a.md")
	fresh := r.memoryAbout("Nothing to see.", "internal/auth/service.go")
	vague := r.memoryAbout("The team prefers small PRs.")

	if got := r.verifier().Verify(ctx, fresh); got.State != Fresh {
		t.Fatalf("before any change: %+v, want fresh", got)
	}
	r.write("internal/auth/service.go", "package auth\n\nfunc Check() {}\n")
	r.git("mv", "scripts/deploy.sh", "scripts/release.sh")
	r.git("rm", "-q", "docs/a.md")
	r.commit("change")
	r.write("internal/auth/service.go", "package auth\n\nfunc Check() {} // uncommitted\n")

	v := r.verifier()
	tests := []struct {
		name    string
		m       *memory.Memory
		state   State
		reasons []string
	}{
		{"edited", edited, Suspect, []string{
			"internal/auth/service.go changed since 2026-11-02, 1 commit", "`Verify` no longer appears in the code"}},
		{"renamed", renamed, Suspect, []string{"scripts/deploy.sh was renamed to scripts/release.sh"}},
		{"deleted", deleted, Suspect, []string{"docs/a.md was deleted"}},
		{"vague", vague, Unverifiable, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := v.Verify(ctx, tt.m)
			if got.State != tt.state || strings.Join(got.Reasons, "|") != strings.Join(tt.reasons, "|") {
				t.Errorf("Verify = %s %q, want %s %q", got.State, got.Reasons, tt.state, tt.reasons)
			}
		})
	}

	// --fix follows the rename: the path in body and anchors, re-anchored.
	res := v.Verify(ctx, renamed)
	fixed, changed := Fix(r.root, v.Head, renamed, res)
	if !changed || !strings.Contains(fixed.Body, "`scripts/release.sh`") || fixed.Anchors.Files[0].Path != "scripts/release.sh" {
		t.Fatalf("Fix = %q %+v", fixed.Body, fixed.Anchors)
	}
	if got := v.Verify(ctx, fixed); got.State != Fresh {
		t.Errorf("after Fix: %+v, want fresh", got)
	}
}

func TestVerifyOutsideGit(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("x"), 0o644)
	a, _ := Anchor(root, root, "", []string{filepath.Join(root, "a.txt")})
	m := memory.New(memory.Header{Name: "m", Description: "d", Type: memory.TypeProject, Anchors: a}, "About `SomeFunc` in a.txt.")
	v := &Verifier{Root: root}
	if got := v.Verify(context.Background(), m); got.State != Fresh {
		t.Errorf("outside git, unchanged: %+v", got)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("y"), 0o644)
	if got := v.Verify(context.Background(), m); got.State != Suspect || got.Reasons[0] != "a.txt changed" {
		t.Errorf("outside git, changed: %+v, want hashes only", got)
	}
}

func TestReplacePath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"see a/b.go.", "see c/d.go."},
		{"`a/b.go`", "`c/d.go`"},
		{"x/a/b.go and a/b.gox", "x/a/b.go and a/b.gox"},
	} {
		if got := replacePath(tt.in, "a/b.go", "c/d.go"); got != tt.want {
			t.Errorf("replacePath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

type mapCache struct {
	hashes map[string]string
	idents map[string]bool
}

func newMapCache() *mapCache {
	return &mapCache{hashes: map[string]string{}, idents: map[string]bool{}}
}

func key(p string, size, mtime int64) string { return fmt.Sprint(p, "|", size, "|", mtime) }

func (c *mapCache) Hash(p string, size, mtime int64) (string, bool) {
	h, ok := c.hashes[key(p, size, mtime)]
	return h, ok
}
func (c *mapCache) PutHash(p string, size, mtime int64, h string) { c.hashes[key(p, size, mtime)] = h }
func (c *mapCache) Ident(id, head string) (bool, bool) {
	f, ok := c.idents[id+"@"+head]
	return f, ok
}
func (c *mapCache) PutIdent(id, head string, f bool) { c.idents[id+"@"+head] = f }
