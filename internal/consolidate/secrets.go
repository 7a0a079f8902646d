package consolidate

import (
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// refuseSecrets refuses a fact that holds a secret, before any of it is
// slugged into a name, searched for or written. The error wraps
// [redact.ErrSecret] and names each secret's field and kind, never the
// secret; the vault and the inbox check what they write again.
func refuseSecrets(f Fact) error {
	err := redact.Check(
		redact.Field{Name: "name", Text: f.Name},
		redact.Field{Name: "description", Text: f.Description},
		redact.Field{Name: "body", Text: f.Body, Lines: true},
		redact.Field{Name: "why", Text: f.Why},
	)
	if err != nil {
		return fmt.Errorf("consolidate: %w", err)
	}
	return nil
}
