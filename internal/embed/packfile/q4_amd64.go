//go:build amd64 && !noasm

package packfile

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// q4Whole decodes len(dst)/[Q4Group] whole groups of [Q4] values into dst
// from their bytes v and bfloat16 scales, with AVX2 (q4_amd64.s), and
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
