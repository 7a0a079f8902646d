package childenv

import (
	"slices"
	"strings"
)

// reach are the CLAUDE_CODE_* variables that say how a claude child
// reaches and authenticates with the model: Bedrock, Vertex, Foundry, an
// OAuth token, client certificates.
var reach = []string{
	"CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX", "CLAUDE_CODE_USE_FOUNDRY",
	"CLAUDE_CODE_SKIP_BEDROCK_AUTH", "CLAUDE_CODE_SKIP_VERTEX_AUTH", "CLAUDE_CODE_SKIP_FOUNDRY_AUTH",
	"CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_API_KEY_HELPER_TTL_MS",
	"CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
}

// Reaches reports whether the CLAUDE_CODE_* variable key says how a claude
// child reaches and authenticates with the model.
func Reaches(key string) bool { return slices.Contains(reach, key) }

// kept reports whether a child keeps the CLAUDE_CODE_* variable key: what
// says how to reach the model, or turns off network traffic, not which
// session is running.
func kept(key string) bool {
	return Reaches(key) || key == "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"
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
		return !kept(key)
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
