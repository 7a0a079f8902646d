package staleness

import (
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Horizons of the expiry policy: how long a memory of each type holds
// before it is due for review. User and feedback memories have none.
var defaultHorizons = map[memory.Type]time.Duration{
	memory.TypeProject:   90 * 24 * time.Hour,
	memory.TypeReference: 180 * 24 * time.Hour,
}

// ReviewBy returns the date a memory of type t written at now is due for
// review, or the zero time when its type never expires.
func ReviewBy(t memory.Type, now time.Time) time.Time {
	d, ok := defaultHorizons[t]
	if !ok {
		return time.Time{}
	}
	y, m, day := now.Add(d).UTC().Date()
	return time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
}
