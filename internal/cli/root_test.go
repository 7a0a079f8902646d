package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunExitCodes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("MNEMO_HOME", filepath.Join(home, ".mnemo"))
	t.Chdir(t.TempDir())
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"version"}, 0, ""},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"list", "--nope"}, 2, "unknown flag: --nope"},
		{[]string{"add", "--type", "proj", "-d", "x", "y"}, 2, `--type "proj" is not one of`},
		{[]string{"show"}, 2, "show takes 1 argument(s), got 0"},
		{[]string{"show", "nothing-here"}, 1, "no vault at"},
		{[]string{"lint", "--user"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			streams, _, errOut := TestIO("")
			if code := Run(context.Background(), tt.args, streams); code != tt.code {
				t.Errorf("Run(%q) = %d, want %d; stderr:\n%s", tt.args, code, tt.code, errOut)
			}
			if !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("Run(%q) stderr = %q, want it to contain %q", tt.args, errOut, tt.err)
			}
		})
	}
}

// TestHelp checks every command's --help against testdata/help; run
// go test -update to rewrite them after changing a command's text.
func TestHelp(t *testing.T) {
	root := newRootCmd(NewFactory(&IOStreams{}))
	cmds := append(root.Commands(), root)
	for _, c := range cmds {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			args := []string{c.Name(), "--help"}
			if c == root {
				args = []string{"--help"}
			}
			streams, out, errOut := TestIO("")
			if code := Run(context.Background(), args, streams); code != 0 {
				t.Fatalf("mnemo %s = %d: %s", strings.Join(args, " "), code, errOut)
			}
			if c != root && !strings.Contains(out.String(), "Examples:") {
				t.Errorf("mnemo %s --help has no examples", c.Name())
			}
			path := filepath.Join("testdata", "help", c.Name()+".txt")
			if *update {
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if out.String() != string(want) {
				t.Errorf("mnemo %s --help differs from %s (run go test -update if the change is right):\n%s", c.Name(), path, out)
			}
		})
	}
}
