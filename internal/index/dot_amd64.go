package index

import "golang.org/x/sys/cpu"

// dots sets out[i] to the dot product of q with vector i of codes (dim
// int8 values from codes[i*dim:]) times scales[i]: the similarity of q to
// each vector as stored (see encodeVector), without making float32 of
// them first. Four times fewer bytes to read than float32 vectors is
// what makes it fast: a scan reads every vector, and 10,000 of them are
// 5 MB instead of 20.
//
// With AVX2 and FMA (x86 since 2013) and dim a multiple of 8 the work is
// done by dotsAVX2, or where AVX-512 runs by dotsAVX512, which gives the
// same results to the bit; elsewhere by dotsGeneric. Both add float32 products,
// in other orders, so they agree to about 1e-6 of the sum.
func dots(codes []byte, scales, q, out []float32, dim int) {
	if dim <= 0 || len(q) < dim || len(scales) < len(out) || len(codes) < len(out)*dim {
		panic("index: dots: short arguments")
	}
	if dim%8 == 0 && cpu.X86.HasAVX512F {
		dotsAVX512(codes, scales, q, out, dim)
		return
	}
	if dim%8 == 0 && cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		dotsAVX2(codes, scales, q, out, dim)
		return
	}
	dotsGeneric(codes, scales, q, out, dim)
}

// dotsAVX2 is [dots] for dim a multiple of 8, on a processor with AVX2
// and FMA, with its arguments checked. Per 8 values of a vector it
// sign-extends 8 int8 to int32 (VPMOVSXBD, a shuffle: port 5), makes
// float32 of them (VCVTDQ2PS) and adds their products with q to one of
// four sums (VFMADD231PS; both on ports 0 and 1), 32 values a turn; one
// multiply by the scale ends a vector. So a vector of 512 takes about 64
// cycles whether it is in cache or not: the scan is bound by those
// instructions, not by memory. BenchmarkDots on this project's machine:
// 27-35 ns a vector, 0.3 ms for 10,000, against 89 ns for gonum's Sgemv
// over the same vectors as float32. Going faster would take integer
// products (VPMADDWD), which round the query too and so move the scores.
//
//go:noescape
func dotsAVX2(codes []byte, scales, q, out []float32, dim int)

// dotsAVX512 is [dotsAVX2] sixteen values to an instruction, on a
// processor with AVX-512, with the same sums in the same order: the same
// scores to the bit, so that which of the two scans changes no ranking.
// Half the sign extensions (VPMOVSXBD, port 5) of dotsAVX2 for the same
// work: BenchmarkDots on this project's machine (load 15 on 2 cores, three
// runs), 10,000 vectors 26-42 ns a vector against 37-44, 256 vectors (in
// cache) 20-40 against 47-129.
//
//go:noescape
func dotsAVX512(codes []byte, scales, q, out []float32, dim int)
