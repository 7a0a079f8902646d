//go:build !race

package extract

// raceEnabled: see race_test.go.
const raceEnabled = false
