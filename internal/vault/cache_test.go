package vault

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLoadSeesRewriteWithTimesKept: a memory file rewritten in place at
// the same size with its modification time set back (cp -p, rsync -t,
// touch -d) is read again, not given from what a long-lived process (the
// MCP server) kept of it: its change time moved. And a file changed
// within filestamp.Window is not kept at all: a rewrite in the same tick
// of the clock keeps every time.
func TestLoadSeesRewriteWithTimesKept(t *testing.T) {
	v := mustOpen(t)
	path := filepath.Join(v.Dir, "deploy.md")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	put := func(body string, at time.Time) {
		t.Helper()
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString("---\nname: deploy\ndescription: Deploys go to a cluster\ntype: project\n---\n" + body + "\n"); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	load := func() string {
		t.Helper()
		m, err := v.Load("deploy")
		if err != nil {
			t.Fatal(err)
		}
		return m.Body
	}
	put("Deploys go to the blue cluster.", old)
	if got := load(); got != "Deploys go to the blue cluster.\n" {
		t.Fatalf("first load = %q", got)
	}
	time.Sleep(10 * time.Millisecond) // the change time's clock moves on
	put("Deploys go to the gren cluster.", old)
	if got := load(); got != "Deploys go to the gren cluster.\n" {
		t.Errorf("load after a rewrite with the size and time kept = %q; want the new body", got)
	}
	now := time.Now()
	put("Deploys go to the blue cluster.", now)
	load()
	put("Deploys go to the gren cluster.", now) // the same tick
	if got := load(); got != "Deploys go to the gren cluster.\n" {
		t.Errorf("load after a rewrite in the same tick = %q; want the new body", got)
	}
}
