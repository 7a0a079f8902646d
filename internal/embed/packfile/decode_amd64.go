//go:build amd64 && !noasm

package packfile

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// q4Whole decodes len(dst)/[Q4Group] whole groups of [Q4] values into dst
// from their bytes v and bfloat16 scales, with AVX2 (decode_amd64.s), and
// reports whether it could.
func q4Whole(dst []float32, v, scales string) bool {
	n := len(dst) / Q4Group
	if !cpu.X86.HasAVX2 || n == 0 {
		return false
	}
	// The assembly reads and writes within these bounds.
	_, _ = v[n*Q4Group/2-1], scales[2*n-1]
	q4Decode(&dst[0], unsafe.StringData(v), unsafe.StringData(scales), n, &q4Levels)
	return true
}

//go:noescape
func q4Decode(dst *float32, v *byte, scales *byte, n int, levels *[16]float32)

// q8Whole decodes the first len(dst) rounded down to 8 [Q8Cols] values
// into dst from their bytes v and column scales, with AVX2
// (decode_amd64.s), and returns how many it decoded.
func q8Whole(dst []float32, v string, scale []float32) int {
	n := len(dst) / 8
	if !cpu.X86.HasAVX2 || n == 0 {
		return 0
	}
	// The assembly reads and writes within these bounds.
	_, _ = v[8*n-1], scale[8*n-1]
	q8Decode(&dst[0], unsafe.StringData(v), &scale[0], n)
	return 8 * n
}

//go:noescape
func q8Decode(dst *float32, v *byte, scale *float32, n int)
