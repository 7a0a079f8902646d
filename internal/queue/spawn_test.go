package queue

import (
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
