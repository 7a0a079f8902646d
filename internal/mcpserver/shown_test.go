package mcpserver

import (
	"strings"
	"testing"
)

// TestShownMemo: the memo gives what shown gives, the first time and
// from what it kept, secrets redacted either way, and keeps at most
// shownMemoBytes.
func TestShownMemo(t *testing.T) {
	token := "ghp_" + "8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI"
	var c shownMemo
	for _, text := range []string{
		"The release bot publishes to the registry.",
		"The bot token is " + token + "; publish after logging in.",
		"",
	} {
		want := shown(text)
		for i := range 2 {
			if got := c.shown(text); got != want {
				t.Errorf("call %d: shown(%q) = %q, want %q", i+1, text, got, want)
			}
		}
	}
	if got := c.shown("token " + token); strings.Contains(got, token[4:]) {
		t.Errorf("the memo gave a secret: %q", got)
	}
	big := strings.Repeat("a long body of plain words ", 4000) // ~108 KB
	for i := range 100 {
		c.shown(big + strings.Repeat("x", i))
		if c.bytes > shownMemoBytes {
			t.Fatalf("after %d texts the memo keeps %d bytes, over %d", i+1, c.bytes, shownMemoBytes)
		}
	}
}
