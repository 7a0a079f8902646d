package queue

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestScrubEnvKeepsModelAccess: the worker a hook starts keeps what the
// claude child needs to reach the model (it lost every CLAUDE_CODE_*
// variable, Bedrock and Vertex setups and OAuth tokens among them), and
// loses what marks the parent session.
func TestScrubEnvKeepsModelAccess(t *testing.T) {
	got := ScrubEnv([]string{"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_OAUTH_TOKEN=t", "PATH=/bin"})
	want := []string{"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_OAUTH_TOKEN=t", "PATH=/bin"}
	if !slices.Equal(got, want) {
		t.Errorf("ScrubEnv = %q, want %q", got, want)
	}
}

// TestOpenOddPath: a state folder whose path holds URI syntax ('#', '?',
// '%') gets its queue.db inside it (a '#' made SQLite create the file
// at the part before it, outside the state folder).
func TestOpenOddPath(t *testing.T) {
	for _, name := range []string{"h#x", "h?x", "100%"} {
		dir := filepath.Join(t.TempDir(), name, "state")
		q, err := Open(context.Background(), dir, nil)
		if err != nil {
			t.Fatalf("Open(%q) = %v", dir, err)
		}
		q.Close()
		if _, err := os.Stat(filepath.Join(dir, FileName)); err != nil {
			t.Errorf("queue.db for %q is not in the state folder: %v", name, err)
		}
	}
}
