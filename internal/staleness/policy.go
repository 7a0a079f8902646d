package staleness

import (
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// ReviewBy returns the date a memory of type t written at now is due for
// review under the default policy, or the zero time when its type never
// expires.
func ReviewBy(t memory.Type, now time.Time) time.Time {
	return DefaultPolicy().ReviewBy(&memory.Memory{Header: memory.Header{Type: t}}, now)
}
