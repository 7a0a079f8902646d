//go:build unix

package bench

import (
	"runtime"
	"syscall"
	"time"
)

// peakRSS returns the largest resident set size of this process so far,
// in bytes, or 0 when the system does not say.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes on macOS
	}
	return ru.Maxrss * 1024 // kilobytes on Linux and the BSDs
}

// cpuTime returns the CPU time (user and system) this process has used,
// or 0 when the system does not say. On a busy machine it shows what an
// operation cost, where wall time also counts the wait for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
