// The encoder's matrix multiply: y (n×m) += x (n×k) · W (k×m), for n
// small (a query's 1 to 16 tokens; up to 128 rows of a batch) and k, m
// in {256, 512, 768, 1536}. That is nearly all of its arithmetic, about
// 3.9 million multiply-adds a token.
//
// gonum's sgemm, which did it before, computes it as one 4-wide SSE axpy
// per element of x, loading and storing a row of y each time, without
// FMA: 7.2 ms of CPU for a query of about 10 tokens. Where the processor has AVX2 and FMA
// (amd64, checked with x/sys/cpu), the assembly kernels of gemm_amd64.s
// multiply instead, a panel of 16 columns of W at a time: panel4 keeps a
// 4×16 block of y in 8 ymm registers over the whole of k (per row of the
// panel two loads of W, four broadcasts of x, 8 FMAs; y is loaded and
// stored once). Rows left over (n not a multiple of 4: the last layer's
// mean, the pooling) go one at a time through panel1, which takes the
// panel's rows 4 at a time into 4 pairs of accumulators so that it too
// keeps 8 FMAs in flight. With AVX-512, blocks of 8 rows go through
// panel8z: 8 zmm accumulators, one load of the panel's row, x broadcast
// by each FMA from memory. A panel narrower than 16 columns (no matrix of
// the model has one; the attention's, of n columns, do) goes to [gemm].
//
// The resident matrices are laid out in panels (k rows of 16 contiguous
// values, one panel after another; of 32, as stored, with AVX-512: see
// gemm_quant.go): a panel, at most 96 KB, stays in L2
// while every block of rows goes through it, and it is read from memory
// in order, which the prefetcher follows. In place in a row-major W the
// 16 columns are a line every 2 to 6 KB, on another page every row or
// two. The stream path's chunk (chunkCols columns, decoded just before)
// is in L2 whatever its layout, so it stays row-major: copying it into
// panels cost more than it saved.
//
// BenchmarkKernel, 512×1536, resident layout, load ~8 on 2 cores (µs):
// gonum 297 / 602 / 2,430 / 3,912 for 1 / 2 / 10 / 16 rows; AVX2 panels
// 98 / 108 / 270 / 401 (up to 4 rows it reads W, 3 MB, at ~30 GB/s and
// no faster); AVX-512 200 at 10 rows, 270 at 16.
//
// A query embedded by the MCP server (QueryTokens resident, medians of 5
// runs interleaved with gonum's, load 6 to 12 on 2 cores): 2.6 -> 1.2 ms
// at 2 tokens, 8.9 -> 1.4 at 8, 16.7 -> 2.0 at 16; CPU a query 7.5 ->
// 1.6 ms at 8 tokens.
//
// Elsewhere (no AVX2 or FMA, another architecture, or built with the
// noasm tag) every matrix stays row-major and [gemm] multiplies it.

package embed

// panelCols is the width of the column panels a [kernel] with panels
// stores W in.
const panelCols = 16

// A kernel multiplies activations by weight matrices. With panels, it
// multiplies with panel4 and panel1 (gemm_amd64.s, or their Go versions
// where the assembly does not run), and the matrices it decodes whole
// it lays out in panels (see [kernel.put]); without, [gemm] multiplies
// and every matrix is row-major.
type kernel struct {
	panels bool
	zmm    bool // with panels: blocks of 8 rows go through panel8z (AVX-512)
	half   bool // with panels: resident matrices not kept as stored are float16 (see gemm_half.go)
	quant  bool // resident 4-bit and int8 matrices are kept as stored (see gemm_quant.go); with zmm
}

// newKernel returns the fastest kernel this processor runs.
func newKernel() kernel {
	panels, zmm, half := haveKernel()
	return kernel{panels: panels, zmm: zmm, half: half, quant: zmm}
}

// put stores row i of a k×m matrix into w, laid out for kn: in panels of
// [panelCols] columns, one after another, or row-major.
func (kn kernel) put(w []float32, k, m, i int, row []float32) {
	if !kn.panels {
		copy(w[i*m:(i+1)*m], row)
		return
	}
	layPanels(w, k, m, i, row)
}

// layPanels stores row i of a k×m matrix into w in panels of [panelCols]
// columns, one after another: panel p starts after p panels of k rows of
// 16; a narrower last panel has rows of its own width.
func layPanels[T float32 | uint16](w []T, k, m, i int, row []T) {
	for c0 := 0; c0 < m; c0 += panelCols {
		c1 := min(c0+panelCols, m)
		copy(w[c0*k+i*(c1-c0):], row[c0:c1])
	}
}

// mulAdd adds x·w to y, for x of n rows of k values, w a k×m matrix (k·m
// values) and y of n rows of m values, ldy apart. w is laid out as
// [kernel.put] lays it out when panels, row-major otherwise.
func (kn kernel) mulAdd(x []float32, n, k int, w []float32, m int, panels bool, y []float32, ldy int) {
	if n == 0 || k == 0 || m == 0 {
		return
	}
	// The assembly reads and writes within these bounds.
	_, _, _ = x[n*k-1], w[k*m-1], y[(n-1)*ldy+m-1]
	if !kn.panels && !panels {
		gemm(x, n, k, w, m, m, y, ldy)
		return
	}
	for c := 0; c < m; c += panelCols {
		r := min(panelCols, m-c)
		p, ldp := w[c:], m // the panel's first row, and how far apart its rows are
		if panels {
			p, ldp = w[c*k:], r
		}
		if !kn.panels || r < panelCols {
			gemm(x, n, k, p, r, ldp, y[c:], ldy)
			continue
		}
		i := 0
		for ; kn.zmm && i+8 <= n; i += 8 {
			panel8z(k, &x[i*k], k, &p[0], ldp, &y[i*ldy+c], ldy)
		}
		for ; i+4 <= n; i += 4 {
			panel4(k, &x[i*k], k, &p[0], ldp, &y[i*ldy+c], ldy)
		}
		for ; i < n; i++ {
			panel1(k, &x[i*k], &p[0], ldp, &y[i*ldy+c])
		}
	}
}

// gemm is y += x·w in Go, for w of k rows of m values, ldw apart: where
// the assembly kernels do not run, and for a panel narrower than theirs.
// It replaced gonum's sgemm, the one use of gonum left, which cost the
// binary 0.5 MB (its whole BLAS was linked in); where the kernels do not
// run (arm64, which gonum too multiplies in Go; x86 without AVX2) a query
// costs a few times what it does with them.
func gemm(x []float32, n, k int, w []float32, m, ldw int, y []float32, ldy int) {
	for i := range n {
		yr := y[i*ldy : i*ldy+m : i*ldy+m]
		for l, a := range x[i*k : (i+1)*k] {
			if a == 0 {
				continue // a ReLU's outputs are often
			}
			for j, e := range w[l*ldw : l*ldw+m : l*ldw+m] {
				yr[j] += a * e
			}
		}
	}
}
