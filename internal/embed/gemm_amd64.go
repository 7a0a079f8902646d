//go:build amd64 && !noasm

package embed

import "golang.org/x/sys/cpu"

// haveKernel tells whether this processor runs panel4 and panel1 (AVX2
// and FMA), and panel8z too (AVX-512F). That the operating system saves
// the registers is part of x/sys/cpu's answer.
func haveKernel() (panels, zmm bool) {
	panels = cpu.X86.HasAVX2 && cpu.X86.HasFMA
	return panels, panels && cpu.X86.HasAVX512F
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
