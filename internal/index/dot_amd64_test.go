package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

// archKernels are the kernels of this architecture that this processor
// runs, called directly (dots picks them only for some dims).
func archKernels() []kernel {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return nil
	}
	only8 := func(name string, f func(codes []byte, scales, q, out []float32, dim int)) kernel {
		return kernel{name, func(codes []byte, scales, q, out []float32, dim int) {
			if dim%8 != 0 {
				dotsGeneric(codes, scales, q, out, dim) // as dots does
				return
			}
			f(codes, scales, q, out, dim)
		}}
	}
	ks := []kernel{only8("avx2", dotsAVX2)}
	if cpu.X86.HasAVX512F {
		ks = append(ks, only8("avx512", dotsAVX512))
	}
	return ks
}

// TestDotsAVX512SameBits: the AVX-512 scan gives what the AVX2 scan gives
// to the bit, for every length of vector dots gives it (multiples of 8,
// of 32 and not), so that a processor with AVX-512 ranks as one without.
func TestDotsAVX512SameBits(t *testing.T) {
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		t.Skip("no AVX-512 here")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, dim := range []int{8, 16, 24, 32, 40, 56, 64, 96, 504, 512, 520, 768, 1024} {
		t.Run(fmt.Sprint(dim), func(t *testing.T) {
			n := 50
			codes, scales := make([]byte, n*dim), make([]float32, n)
			for i := range codes {
				codes[i] = byte(r.IntN(256))
			}
			for i := range scales {
				scales[i] = r.Float32() / 127
			}
			q := randomUnit(r, dim)
			want, got := make([]float32, n), make([]float32, n)
			dotsAVX2(codes, scales, q, want, dim)
			dotsAVX512(codes, scales, q, got, dim)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Errorf("vector %d: avx512 %x (%g), avx2 %x (%g)", i,
						math.Float32bits(got[i]), got[i], math.Float32bits(want[i]), want[i])
				}
			}
		})
	}
}
