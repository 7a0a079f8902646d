//go:build !amd64 || noasm

package embed

import "unsafe"

// haveKernel tells whether the assembly kernels run here: they exist for
// amd64 only, so multiplying is [gemm]'s (see [kernel]).
func haveKernel() (panels, zmm bool) { return false, false }

// panel4 is gemm_amd64.s's kernel in Go, so that the panel layout works
// (and is tested) everywhere, though it is chosen only where the
// assembly runs.
func panel4(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int) {
	xs := unsafe.Slice(x, 3*ldx+k)
	ys := unsafe.Slice(y, 3*ldy+panelCols)
	for r := range 4 {
		panel1(k, &xs[r*ldx], p, ldp, &ys[r*ldy])
	}
}

// panel8z is gemm_amd64.s's 8-row kernel in Go (see [panel4]).
func panel8z(k int, x *float32, ldx int, p *float32, ldp int, y *float32, ldy int) {
	xs := unsafe.Slice(x, 7*ldx+k)
	ys := unsafe.Slice(y, 7*ldy+panelCols)
	panel4(k, &xs[0], ldx, p, ldp, &ys[0], ldy)
	panel4(k, &xs[4*ldx], ldx, p, ldp, &ys[4*ldy], ldy)
}

// panel1 is gemm_amd64.s's one-row kernel in Go (see [panel4]).
func panel1(k int, x *float32, p *float32, ldp int, y *float32) {
	if k == 0 {
		return
	}
	xs, ps, ys := unsafe.Slice(x, k), unsafe.Slice(p, (k-1)*ldp+panelCols), unsafe.Slice(y, panelCols)
	var acc [panelCols]float32
	for l, v := range xs {
		for j, w := range ps[l*ldp : l*ldp+panelCols] {
			acc[j] += v * w
		}
	}
	for j, a := range acc {
		ys[j] += a
	}
}
