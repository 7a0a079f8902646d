// Package race tells whether the program was built with the race detector
// (go test -race), for tests whose subject the detector changes (sync.Pool
// drops much of what is put back, so allocation counts are not the
// program's) or that it only slows (arithmetic on one goroutine, which
// .ci/run runs without it).
package race
