//go:build !amd64 || noasm

package packfile

// q4Whole would decode whole groups of [Q4] values with assembly (see
// decode_amd64.go): there is none here.
func q4Whole(dst []float32, v, scales string) bool { return false }

// q8Whole would decode [Q8Cols] values with assembly (see
// decode_amd64.go): there is none here.
func q8Whole(dst []float32, v string, scale []float32) int { return 0 }
