//go:build amd64 && !noasm

package embed

import "golang.org/x/sys/cpu"

// asmKernels tells that the kernels are gemm_amd64.s's, which run only
// where [haveKernel] says so.
const asmKernels = true

// haveKernel tells whether this processor runs panel4 and panel1 (AVX2
// and FMA), panel8z and the kernels of gemm_q4_amd64.s and
// gemm_q8_amd64.s too (AVX-512F: they use nothing past it), and the
// float16 kernels (F16C). That the operating system saves the registers
// is part of x/sys/cpu's answer.
func haveKernel() (panels, zmm, half bool) {
	panels = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	return panels, panels && cpu.X86.HasAVX512F, panels && cpu.X86.HasF16C
}

// panel4 adds x's 4 rows (ldx values apart) times the panel p (k rows of
// [panelCols] values, ldp apart) to y's 4 rows (ldy values apart). See
// gemm_amd64.s.
//
//go:noescape
func panel4(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int)

// panel1 adds x's one row times the panel p (rows ldp apart) to y's
// [panelCols] values.
//
//go:noescape
func panel1(k int, x *float32, p *float32, ldp int, y *float32)

// panel8z is panel4 for 8 rows, with AVX-512.
//
//go:noescape
func panel8z(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int)

// panel4h is panel4 for a panel of float16 values, its rows contiguous
// (see gemm_half.go).
//
//go:noescape
func panel4h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int)

// panel2h is panel4h for 2 rows.
//
//go:noescape
func panel2h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int)

// panel1h is panel1 for a panel of float16 values, its rows contiguous.
//
//go:noescape
func panel1h(k int, x *float32, p *uint16, y *float32)

// halves stores n float32 values of src, n a multiple of 8, rounded to
// float16 (nearest, ties to even) in dst, with VCVTPS2PH (F16C).
//
//go:noescape
func halves(dst *uint16, src *float32, n int)

// quantBlock adds x's n rows (k values apart), n from 1 to 8, times one
// panel of a quantMatrix (its values p, its scales, and the levels of a
// 4-bit one) to 32 values of y's n rows (ldy values apart), with AVX-512:
// q4r1 to q4r8 (gemm_q4_amd64.s) and q8r1 to q8r8 (gemm_q8_amd64.s).
func quantBlock(n, k int, x *float32, q4 bool, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int) {
	if q4 {
		switch n {
		case 1:
			q4r1(k, x, p, scale, levels, y, ldy)
		case 2:
			q4r2(k, x, p, scale, levels, y, ldy)
		case 3:
			q4r3(k, x, p, scale, levels, y, ldy)
		case 4:
			q4r4(k, x, p, scale, levels, y, ldy)
		case 5:
			q4r5(k, x, p, scale, levels, y, ldy)
		case 6:
			q4r6(k, x, p, scale, levels, y, ldy)
		case 7:
			q4r7(k, x, p, scale, levels, y, ldy)
		case 8:
			q4r8(k, x, p, scale, levels, y, ldy)
		}
		return
	}
	switch n {
	case 1:
		q8r1(k, x, p, scale, y, ldy)
	case 2:
		q8r2(k, x, p, scale, y, ldy)
	case 3:
		q8r3(k, x, p, scale, y, ldy)
	case 4:
		q8r4(k, x, p, scale, y, ldy)
	case 5:
		q8r5(k, x, p, scale, y, ldy)
	case 6:
		q8r6(k, x, p, scale, y, ldy)
	case 7:
		q8r7(k, x, p, scale, y, ldy)
	case 8:
		q8r8(k, x, p, scale, y, ldy)
	}
}

// The kernels of quantBlock for a 4-bit panel, for 1 to 8 rows.
//
//go:noescape
func q4r1(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r2(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r3(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r4(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r5(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r6(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r7(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

//go:noescape
func q4r8(k int, x *float32, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int)

// The kernels of quantBlock for an int8 panel, for 1 to 8 rows.
//
//go:noescape
func q8r1(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r2(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r3(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r4(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r5(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r6(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r7(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)

//go:noescape
func q8r8(k int, x *float32, p *byte, scale *float32, y *float32, ldy int)
