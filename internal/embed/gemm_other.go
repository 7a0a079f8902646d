//go:build !amd64 || noasm

package embed

import "unsafe"

// asmKernels tells that the kernels are Go's, which run everywhere.
const asmKernels = false

// haveKernel tells whether the assembly kernels run here: they exist for
// amd64 only, so multiplying is [gemm]'s (see [kernel]).
func haveKernel() (panels, zmm, half bool) { return false, false, false }

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

// panel4h is gemm_amd64.s's float16 kernel in Go (see [panel4]).
func panel4h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int) {
	xs := unsafe.Slice(x, 3*ldx+k)
	ys := unsafe.Slice(y, 3*ldy+panelCols)
	for r := range 4 {
		panel1h(k, &xs[r*ldx], p, &ys[r*ldy])
	}
}

// panel2h is gemm_amd64.s's 2-row float16 kernel in Go (see [panel4]).
func panel2h(k int, x *float32, ldx int, p *uint16, y *float32, ldy int) {
	xs := unsafe.Slice(x, ldx+k)
	ys := unsafe.Slice(y, ldy+panelCols)
	panel1h(k, &xs[0], p, &ys[0])
	panel1h(k, &xs[ldx], p, &ys[ldy])
}

// panel1h is gemm_amd64.s's one-row float16 kernel in Go (see [panel4]).
func panel1h(k int, x *float32, p *uint16, y *float32) {
	if k == 0 {
		return
	}
	xs, ps, ys := unsafe.Slice(x, k), unsafe.Slice(p, k*panelCols), unsafe.Slice(y, panelCols)
	var acc [panelCols]float32
	for l, v := range xs {
		for j, h := range ps[l*panelCols : (l+1)*panelCols] {
			acc[j] += v * fromHalf(h)
		}
	}
	for j, a := range acc {
		ys[j] += a
	}
}

// halves is gemm_amd64.s's conversion to float16 in Go.
func halves(dst *uint16, src *float32, n int) {
	for i, v := range unsafe.Slice(src, n) {
		unsafe.Slice(dst, n)[i] = toHalf(v)
	}
}

// quantBlock is the kernels of gemm_q4_amd64.s and gemm_q8_amd64.s in
// Go (see [panel4]): [gemmQuant] of a whole panel.
func quantBlock(n, k int, x *float32, q4 bool, p *byte, scale *float32, levels *[16]float32, y *float32, ldy int) {
	if k == 0 {
		return
	}
	bytes, scales := k*quantCols, quantCols
	if q4 {
		bytes, scales = k*quantCols/2, k
	}
	xs, ys := unsafe.Slice(x, n*k), unsafe.Slice(y, (n-1)*ldy+quantCols)
	gemmQuant(xs, n, k, q4, unsafe.Slice(p, bytes), unsafe.Slice(scale, scales), levels, quantCols, ys, ldy)
}
