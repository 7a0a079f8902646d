//go:build !unix

package bench

// peakRSS is unknown on this system.
func peakRSS() int64 { return 0 }
