package hook

import (
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// recordPrompt keeps what the person typed in the session, redacted, in
// the state folder: the MCP server checks what the agent writes against
// it (package provenance). A prompt Claude Code itself submits (a
// scheduled or polled wake-up, a system prompt) is not the person's and
// is not kept; one from -p or the Agent SDK ("sdk") is.
func recordPrompt(w *world, in Input) error {
	switch in.Source {
	case "", "user", "sdk":
	default:
		return nil
	}
	p := provenance.Prompts{Dir: provenance.PromptsDir(w.state), Redact: redact.New(redact.Options{}).String}
	return p.Record(in.SessionID, w.now, transcript.CleanPrompt(in.Prompt))
}
