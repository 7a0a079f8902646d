package mcpserver

import "github.com/mnemo-dev/mnemo/internal/redact"

// shown is vault text as the server gives it to the agent: without
// secrets. No write path of mnemo stores one, but a file written into the
// vault by hand can hold one, and what reaches the model leaves the machine.
func shown(s string) string { return redact.String(s) }
