//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestInstallKeepsOwner: run as root (sudo mnemo init --scope user), init
// rewrites the user's ~/.claude.json; the file and its backup stay the
// user's, with the user's mode.
func TestInstallKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	o := options(t, "user")
	appState := filepath.Join(o.Home, ".claude.json")
	if err := os.WriteFile(appState, []byte(`{"primaryApiKey": "sk-ant-test"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 4321, 8765
	if err := os.Chown(appState, uid, gid); err != nil {
		t.Fatal(err)
	}
	cs, err := Install("claude-code", o)
	if err != nil {
		t.Fatal(err)
	}
	backup := ""
	for _, c := range cs {
		if c.Path == appState {
			backup = c.Backup
		}
	}
	for _, p := range []string{appState, backup} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != uid || st.Gid != gid || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: owner %d:%d, mode %#o; want %d:%d, 0600", filepath.Base(p), st.Uid, st.Gid, fi.Mode().Perm(), uid, gid)
		}
	}
}
