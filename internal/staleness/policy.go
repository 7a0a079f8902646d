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

// Retype gives after, a change of before, the review date of its new type
// when the change gave it another type and left the review date as it was:
// a project memory made feedback no longer falls due (and to gc) at the
// project horizon. A review date the change set itself is kept.
func Retype(before, after *memory.Memory, now time.Time) {
	if after.Type != before.Type && after.ReviewBy.Equal(before.ReviewBy) {
		after.ReviewBy = DefaultPolicy().ReviewBy(after, now)
	}
}
