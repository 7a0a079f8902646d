// The resident matrices in IEEE 754 half precision (float16). With a few
// rows, as a query has, multiplying by a matrix takes as long as reading
// it from memory (BenchmarkKernel: 512×1536, 3 MB as float32, ~95 µs at
// 1 to 8 rows, ~30 GB/s); stored as float16 it is half the bytes. The
// kernels of gemm_amd64.s widen each row of a panel to float32 as they
// load it (F16C's VCVTPH2PS) and multiply and add in float32
// as before, so only the weights are rounded, once, at decoding. They are
// int8 or 4-bit quantized already: float16's relative rounding, 2^-11,
// is far below that: over 516 texts (the golden ones, 200 LoCoMo
// questions, 300 turns) a vector with float16 weights was within a
// cosine of 0.99999951 of its float32 one, 2.1e-4 in any value (see
// closeVectors in gemm_test.go).
//
// Measured against float32 panels (medians of 3 runs interleaved, load 3
// to 4 on 2 cores): BenchmarkKernel 512×1536 with AVX-512, 113 -> 33 µs
// at 1 row, 146 -> 47 at 2, 105 -> 80 at 4, 128 -> 101 at 8, 229 -> 208
// at 16 (from 4 rows on the FMAs, not memory, bound it); QueryTokens
// resident 1.21 -> 0.65 ms at 2 tokens, 1.40 -> 0.99 at 8, 2.34 -> 1.72
// at 16; decoding the resident model 17 -> 11 ms. The MCP server's
// recall by meaning over 10,000 memories (9 runs each, load 3 to 10):
// p50 5.00 -> 4.53 ms, 0.5 ms less CPU a call, 9 MB less resident.
//
// Where the processor has AVX-512, the matrices are now kept as stored
// instead, 4-bit and int8, a third of float16's bytes (gemm_quant.go), so
// these kernels serve processors with F16C but not AVX-512; the AVX-512
// float16 kernels that were here (8 rows in zmm, and the rows left after
// them across 2 and 4 panels at once) went with that.

package embed

import "math"

// toHalf returns the float16 nearest f, ties to even, as VCVTPS2PH does
// with its rounding set to nearest: beyond float16's range is infinity,
// below half its least subnormal is zero (of f's sign), and a NaN stays a
// NaN, made quiet, with the high bits of its payload.
func toHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp, man := int(b>>23)&0xff, b&0x7fffff
	if exp == 0xff {
		if man == 0 {
			return sign | 0x7c00
		}
		return sign | 0x7e00 | uint16(man>>13)
	}
	e := exp - 127 + 15 // float16's biased exponent
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0: // a subnormal float16, in units of 2^-24
		if e < -10 {
			return sign
		}
		return sign | uint16(roundShift(man|0x800000, uint(14-e)))
	}
	// A carry out of the mantissa makes the next exponent, or infinity.
	return sign | uint16(uint32(e)<<10+roundShift(man, 13))
}

// roundShift returns v >> s rounded to nearest, ties to even, for s in
// 1 to 24.
func roundShift(v uint32, s uint) uint32 {
	q, rem, half := v>>s, v&(1<<s-1), uint32(1)<<(s-1)
	if rem > half || rem == half && q&1 == 1 {
		q++
	}
	return q
}

// fromHalf returns the float32 value of the float16 h, which it holds
// exactly.
func fromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp, man := uint32(h>>10)&0x1f, uint32(h&0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		return math.Float32frombits(sign | math.Float32bits(float32(man)*0x1p-24))
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | man<<13)
}

// toHalves stores src rounded to float16 (see [toHalf]) in dst: with
// kn.half, 8 at a time by halves (VCVTPS2PH, five times faster than
// toHalf, which made decoding the resident model 40 ms slower).
func (kn kernel) toHalves(dst []uint16, src []float32) {
	src = src[:len(dst)]
	n := 0
	if kn.half {
		n = len(dst) &^ 7
	}
	if n > 0 {
		halves(&dst[0], &src[0], n)
	}
	for i := n; i < len(dst); i++ {
		dst[i] = toHalf(src[i])
	}
}

// mulAddHalf is [kernel.mulAdd] for w in panels (see [layPanels]) of
// float16 values, with panel4h, panel2h and panel1h: the rows left after
// blocks of 4 go 2 and 1 at a time.
func (kn kernel) mulAddHalf(x []float32, n, k int, w []uint16, m int, y []float32, ldy int) {
	if n == 0 || k == 0 || m == 0 {
		return
	}
	// The assembly reads and writes within these bounds.
	_, _, _ = x[n*k-1], w[k*m-1], y[(n-1)*ldy+m-1]
	for c := 0; c < m; c += panelCols {
		r := min(panelCols, m-c)
		p := w[c*k:]
		if r < panelCols {
			gemmHalf(x, n, k, p, r, y[c:], ldy)
			continue
		}
		i := 0
		for ; i+4 <= n; i += 4 {
			panel4h(k, &x[i*k], k, &p[0], &y[i*ldy+c], ldy)
		}
		if i+2 <= n {
			panel2h(k, &x[i*k], k, &p[0], &y[i*ldy+c], ldy)
			i += 2
		}
		if i < n {
			panel1h(k, &x[i*k], &p[0], &y[i*ldy+c])
		}
	}
}

// gemmHalf is [gemm] for a row-major w of float16 values: for a panel
// narrower than the kernels'.
func gemmHalf(x []float32, n, k int, w []uint16, m int, y []float32, ldy int) {
	for i := range n {
		yr := y[i*ldy : i*ldy+m : i*ldy+m]
		for l, a := range x[i*k : (i+1)*k] {
			for j, h := range w[l*m : (l+1)*m : (l+1)*m] {
				yr[j] += a * fromHalf(h)
			}
		}
	}
}
