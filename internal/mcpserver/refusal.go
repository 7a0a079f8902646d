package mcpserver

import (
	"fmt"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// refusal words a write refused because it holds a secret for the agent:
// nothing was written, which field and line hold what kind of secret, and
// what to do. The secret itself is in no answer. Other errors pass as
// they are.
func refusal(err error) error {
	ses := redact.SecretErrors(err)
	if len(ses) == 0 {
		return err
	}
	parts := make([]string, len(ses))
	for i, se := range ses {
		parts[i] = se.Error()
	}
	return &toolError{err: err, msg: fmt.Sprintf("Not written: %s. Leave the secret out, and say where it is kept instead: mnemo never stores a secret.",
		strings.Join(parts, "; "))}
}
