package index

import "golang.org/x/sys/cpu"

// archKernels are the kernels of this architecture that this processor
// runs, called directly (dots picks them only for some dims).
func archKernels() []kernel {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return nil
	}
	avx2 := func(codes []byte, scales, q, out []float32, dim int) {
		if dim%8 != 0 {
			dotsGeneric(codes, scales, q, out, dim) // as dots does
			return
		}
		dotsAVX2(codes, scales, q, out, dim)
	}
	return []kernel{{"avx2", avx2}}
}
