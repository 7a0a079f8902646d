//go:build race

package extract

// raceEnabled tells that the tests run under the race detector, where
// sync.Pool drops much of what is put back (regexp's matchers among it),
// so allocation counts are not the program's.
const raceEnabled = true
