package vault

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/gittest"
)

// TestCommitOrigin: git vouches for a memory file's header only when the
// commit that gave the file its bytes came from another clone. Each case
// brings the file x.md (source: manual) into a clone by one of the ways
// git has, and says whether the vault takes it as reviewed, and why not;
// the same holds on the first read after the state folder is deleted, and
// once git has expired the reflog that told where a commit came from.
func TestCommitOrigin(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	const made = "committed in this clone"
	cases := []struct {
		name string
		// bring gets x.md into clone, a clone of upstream, which holds
		// other.md in one commit; write writes x.md with a body.
		bring    func(t *testing.T, upstream, clone string, write func(dir, body string))
		reviewed bool
		why      string // in the reason it is not reviewed
	}{
		{"written, not committed", func(t *testing.T, up, c string, write func(string, string)) {
			write(c, "the agent's")
		}, false, ""},
		{"committed here", func(t *testing.T, up, c string, write func(string, string)) {
			write(c, "the agent's")
			commitAll(t, c)
		}, false, made},
		{"committed here and pushed", func(t *testing.T, up, c string, write func(string, string)) {
			write(c, "the agent's")
			commitAll(t, c)
			gittest.Git(t, c, "push", "-q", "origin", "HEAD:refs/heads/side")
			gittest.Git(t, c, "fetch", "-q", "origin")
		}, false, made},
		{"amended here", func(t *testing.T, up, c string, write func(string, string)) {
			write(c, "first")
			commitAll(t, c)
			write(c, "second")
			gittest.Git(t, c, "commit", "-q", "--no-gpg-sign", "-a", "--amend", "--no-edit")
		}, false, made},
		{"a teammate's, pulled", func(t *testing.T, up, c string, write func(string, string)) {
			write(up, "the teammate's")
			commitAll(t, up)
			gittest.Git(t, c, "pull", "-q", "--no-rebase", "origin", "HEAD")
		}, true, ""},
		{"a teammate's, pulled from a URL into a merge", func(t *testing.T, up, c string, write func(string, string)) {
			os.WriteFile(filepath.Join(c, "local.txt"), []byte("mine\n"), 0o644)
			commitAll(t, c)
			write(up, "the teammate's")
			commitAll(t, up)
			gittest.Git(t, c, "pull", "-q", "--no-rebase", "--no-edit", up, "HEAD")
		}, true, ""},
		{"a teammate's, under a rebase of mine", func(t *testing.T, up, c string, write func(string, string)) {
			os.WriteFile(filepath.Join(c, "local.txt"), []byte("mine\n"), 0o644)
			commitAll(t, c)
			write(up, "the teammate's")
			commitAll(t, up)
			gittest.Git(t, c, "pull", "-q", "--rebase", "origin", "HEAD")
		}, true, ""},
		{"a teammate's, reset to", func(t *testing.T, up, c string, write func(string, string)) {
			write(up, "the teammate's")
			commitAll(t, up)
			gittest.Git(t, c, "fetch", "-q", "origin")
			gittest.Git(t, c, "reset", "-q", "--hard", "FETCH_HEAD")
		}, true, ""},
		{"a teammate's, cherry-picked here", func(t *testing.T, up, c string, write func(string, string)) {
			os.WriteFile(filepath.Join(c, "local.txt"), []byte("mine\n"), 0o644)
			commitAll(t, c)
			write(up, "the teammate's")
			commitAll(t, up)
			gittest.Git(t, c, "fetch", "-q", "origin")
			gittest.Git(t, c, "cherry-pick", "FETCH_HEAD")
		}, false, made},
		{"a conflict resolved here", func(t *testing.T, up, c string, write func(string, string)) {
			write(up, "the teammate's")
			commitAll(t, up)
			write(c, "mine")
			commitAll(t, c)
			exec.Command("git", "-C", c, "pull", "-q", "--no-rebase", "origin", "HEAD").Run() // conflicts
			write(c, "resolved")
			commitAll(t, c)
		}, false, made},
		{"committed here with reflogs off", func(t *testing.T, up, c string, write func(string, string)) {
			write(c, "the agent's")
			os.RemoveAll(filepath.Join(c, ".git", "logs"))
			gittest.Git(t, c, "add", "-A")
			gittest.Git(t, c, "-c", "core.logAllRefUpdates=false", "commit", "-q", "--no-gpg-sign", "-m", "x")
		}, false, "reflog does not say"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			up, c := filepath.Join(base, "upstream"), filepath.Join(base, "clone")
			gittest.Git(t, base, "init", "-q", up)
			os.MkdirAll(filepath.Join(up, ".memory"), 0o755)
			os.WriteFile(filepath.Join(up, ".memory", "other.md"), []byte(originFile("other", "x")), 0o644)
			commitAll(t, up)
			gittest.Git(t, base, "clone", "-q", up, c)
			state := filepath.Join(base, "state")
			os.MkdirAll(state, 0o755)
			v, err := Open(filepath.Join(c, ".memory"), LockPath(state))
			if err != nil {
				t.Fatal(err)
			}
			v.List() // the list of writes starts before x.md arrives
			tc.bring(t, up, c, func(dir, body string) {
				os.WriteFile(filepath.Join(dir, ".memory", "x.md"), []byte(originFile("x", body)), 0o644)
			})
			for _, read := range []string{"read", "read again", "first read with no state", "read after the reflog expired"} {
				switch read {
				case "first read with no state":
					os.RemoveAll(state)
					os.MkdirAll(state, 0o755)
				case "read after the reflog expired": // what it said is remembered
					gittest.Git(t, c, "reflog", "expire", "--expire=now", "--all")
				}
				v, _ := Open(filepath.Join(c, ".memory"), LockPath(state)) // another process
				m, err := v.Load("x")
				if err != nil {
					t.Fatal(err)
				}
				if m.Reviewed() != tc.reviewed || !strings.Contains(m.Disowned(), tc.why) {
					t.Errorf("%s: reviewed %v (%q), want %v (%q)", read, m.Reviewed(), m.Disowned(), tc.reviewed, tc.why)
				}
				// other.md came with the clone; without a reflog, git
				// vouches for nothing: only the list (gone with the state)
				want := read == "read" || read == "read again" || !strings.Contains(tc.name, "reflogs off")
				if o, _ := v.Load("other"); o.Reviewed() != want {
					t.Errorf("%s: other.md, from the clone: reviewed %v (%q), want %v", read, o.Reviewed(), o.Disowned(), want)
				}
			}
		})
	}
}

func originFile(name, body string) string {
	return "---\nname: " + name + "\ndescription: About " + name + "\ntype: project\nsource: manual\n---\n" + body + "\n"
}

func commitAll(t *testing.T, dir string) {
	t.Helper()
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-q", "--no-gpg-sign", "-m", "change")
}
