//go:build !unix

package bench

import "time"

// peakRSS is unknown on this system.
func peakRSS() int64 { return 0 }

// cpuTime is unknown on this system.
func cpuTime() time.Duration { return 0 }
