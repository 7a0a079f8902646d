package gittest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// FromTeammate makes the files under folder (relative to root, a git work
// tree) a teammate's: see [Share]. A commit made in root itself is not a
// teammate's: it vouches for no memory file's header (package vault).
func FromTeammate(t testing.TB, root, folder string) {
	t.Helper()
	if err := Share(filepath.Join(root, folder), t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// Share commits the files of dir, a folder of a git work tree, as they
// are, in other (a new clone of the repository, or a new repository when
// it has no commit yet), and pulls that commit back: dir then holds the
// same files, as a teammate's memories come, through git. Files of the
// work tree outside dir are left as they are.
func Share(dir, other string) error {
	top, err := run(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	rel, err := run(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return err
	}
	top, rel = strings.TrimSpace(top), strings.TrimSuffix(strings.TrimSpace(rel), "/")
	if rel == "" {
		return fmt.Errorf("gittest: %s is the top of its work tree, not a folder in it", dir)
	}
	_, noHead := run(top, "rev-parse", "-q", "--verify", "HEAD")
	if noHead != nil {
		_, err = run(top, "init", "-q", other)
	} else {
		_, err = run(top, "clone", "-q", top, other)
	}
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(other, rel)); err != nil {
		return err
	}
	if err := os.CopyFS(filepath.Join(other, rel), os.DirFS(dir)); err != nil {
		return err
	}
	for _, args := range [][]string{{"add", "-A", "--", rel}, {"commit", "-q", "--no-gpg-sign", "--allow-empty", "-m", "a teammate's memories"}} {
		if _, err := run(other, args...); err != nil {
			return err
		}
	}
	// dir as HEAD has it, so that the pull finds nothing of its own in the way.
	if noHead != nil {
		err = os.RemoveAll(dir)
	} else if tracked, _ := run(top, "ls-tree", "--name-only", "HEAD", "--", rel); tracked != "" {
		_, err = run(top, "checkout", "-q", "HEAD", "--", rel)
	}
	if err != nil {
		return err
	}
	if noHead == nil {
		if _, err := run(top, "clean", "-fdq", "--", rel); err != nil {
			return err
		}
	}
	_, err = run(top, "pull", "-q", "--ff-only", other, "HEAD")
	return err
}

// Git runs git in dir as a teammate (a name and email of its own) and
// returns its output; a failure fails the test.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := run(dir, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func run(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=teammate", "-c", "user.email=teammate@example.com"}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}
