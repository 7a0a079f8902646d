package childenv

import (
	"slices"
	"testing"
)

func TestScrub(t *testing.T) {
	in := []string{
		"PATH=/usr/bin", "HOME=/h", "ANTHROPIC_API_KEY=sk", "AWS_REGION=us-east-1",
		"CLAUDECODE=1", "CLAUDE_CODE_ENTRYPOINT=cli", "CLAUDE_CODE_SESSION_ID=abc", "CLAUDE_ENV_FILE=/tmp/x", "MNEMO_CHILD=1",
		"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_USE_VERTEX=1", "CLAUDE_CODE_OAUTH_TOKEN=t", "CLAUDE_CODE_CLIENT_CERT=/c",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	want := []string{
		"PATH=/usr/bin", "HOME=/h", "ANTHROPIC_API_KEY=sk", "AWS_REGION=us-east-1",
		"CLAUDE_CODE_USE_BEDROCK=1", "CLAUDE_CODE_USE_VERTEX=1", "CLAUDE_CODE_OAUTH_TOKEN=t", "CLAUDE_CODE_CLIENT_CERT=/c",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	if got := Scrub(in); !slices.Equal(got, want) {
		t.Errorf("Scrub =\n%q\nwant\n%q", got, want)
	}
}
