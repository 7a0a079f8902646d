package childenv

import (
	"slices"
	"strings"
)

// kept are the CLAUDE_CODE_* variables a child keeps: they say how to reach
// and authenticate with the model (Bedrock, Vertex, Foundry, an OAuth token,
// client certificates) or turn off network traffic, not which session is
// running.
var kept = []string{
	"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY",
	"CLAUDE_CODE_SKIP_BEDROCK_AUTH", "CLAUDE_CODE_SKIP_VERTEX_AUTH", "CLAUDE_CODE_SKIP_FOUNDRY_AUTH",
	"CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_API_KEY_HELPER_TTL_MS",
	"CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
	"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
}

// SessionMarker reports whether the variable key marks the process as
// running inside an agent session (CLAUDECODE, CLAUDE_ENV_FILE, every
// CLAUDE_CODE_* variable but the kept ones) or as one of mnemo's own
// children (MNEMO_CHILD).
func SessionMarker(key string) bool {
	switch {
	case key == "CLAUDECODE" || key == "CLAUDE_ENV_FILE" || key == "MNEMO_CHILD":
		return true
	case strings.HasPrefix(key, "CLAUDE_CODE_"):
		return !slices.Contains(kept, key)
	}
	return false
}

// Scrub returns env without the session markers.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !SessionMarker(k) {
			out = append(out, kv)
		}
	}
	return out
}
