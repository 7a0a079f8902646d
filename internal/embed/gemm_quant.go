// The resident matrices multiplied by as they are stored, where the
// processor has AVX-512 (kernel.quant): 4-bit ([packfile.Q4]: both
// feed-forward matrices of both layers, the second layer's queries, keys
// and values, the pooling) and int8 ([packfile.Q8Cols]: the rest). With
// a query's few rows a multiply is bound by reading its matrix (see
// gemm_half.go), and between two of the MCP server's queries a recall
// reads 5 MB of vectors and more, which pushes the weights out of the
// caches. As float16 they are 9.8 MB; as stored, 3.3 MB: half a byte a
// 4-bit value and a float32 scale for 32 of them (2.6 MB), a byte an int8
// one (0.7 MB). Their bfloat16 scales widened at load cost 0.26 MB; kept
// as bfloat16 they would cost the kernel an instruction a row of a panel.
//
// The kernels (gemm_q4_amd64.s, gemm_q8_amd64.s, gemm_quant_amd64.h)
// decode each row of a panel of 32 columns into two zmm registers as
// package packfile decodes it, then multiply and add it into up to 8 rows
// of x (16 accumulators); so a product is the decoded float32 weights'
// but for the order of the sums (float16 rounded each weight by up to
// 2^-11 of itself). A 4-bit row is the 16 levels times the row's scale
// (VMULPS), permuted by its 16 bytes widened to dwords (VPMOVZXBD;
// VPERMPS reads the low nibble, VPSRLD brings the high one down); an int8
// row is widened, converted and times its columns' scales. Rows of x
// after blocks of 8 go through one kernel of as many rows, so a panel is
// decoded once for every 8 rows.
//
// The decoding takes the FMA ports' time: with the weights in cache
// (BenchmarkKernel, 512×1536, fastest of 5 runs interleaved with the
// float16 kernels of before, load 6 to 7 on 2 cores) 1 row took 19 µs
// (25 with float16), 2 rows 25 (28), 4 rows 45 (44), 8 rows 88 (85), 16
// rows 158 (152); in another run 16 rows took 150 µs, and 121 with the
// decoding left out. A query waits on memory instead, as between two
// recalls (QueryTokensEvicted: 32 MB of other reads before each). Against
// the build before, interleaved, 5 runs each at load 1.6 to 2.4 (medians,
// ms; tokens 2 / 4 / 8 / 16):
//
//	                        float16                     as stored
//	QueryTokensEvicted      0.65 / 0.72 / 1.02 / 1.65   0.38 / 0.43 / 0.69 / 1.15
//	QueryTokens/resident    0.28 / 0.36 / 0.55 / 1.12   0.27 / 0.35 / 0.58 / 1.04
//	EmbedQuestionResident   1.16                        0.94
//	ColdQuestionResident    48.8                        34.4
//
// In cache, 8 tokens took 5% longer: the FMAs bound both, and the
// decoding adds to them. The int8 matrices as stored saved 0.07 to 0.12
// ms of those after 32 MB (against a build that kept them as float16,
// load 2.5 to 3). The MCP server's recall by meaning over 10,000 memories
// (BenchmarkRecallRoundTripMeaning, stand-in vectors, 4 runs each
// interleaved at load 2.8 to 4.3): p50 3.44 -> 2.64 ms, the server's CPU
// a call 3.89 -> 2.79 ms, busy RSS 217 -> 212 MB; 6 runs at load 3.9 to
// 10.3: p50 3.96 -> 3.21 ms, CPU 4.08 -> 3.59 ms.

package embed

import "github.com/mnemo-dev/mnemo/internal/embed/packfile"

// quantCols is the width of a panel of a resident matrix kept as stored:
// one group of [packfile.Q4] columns, which share a scale in each row.
const quantCols = packfile.Q4Group

// A quantMatrix is a k×m matrix as stored, 4-bit or int8, laid out for
// the kernels of gemm_quant_amd64.h in panels of quantCols columns, one
// after another (the last padded to quantCols). A value is decoded as
// package packfile decodes it, then multiplied by.
//
// A 4-bit panel is k rows of 16 bytes, byte b holding the level index of
// column b in its low nibble and of column b+16 in its high, and k
// scales, one a row; a value is its level times its row's scale. An int8
// panel is k rows of 32 values, and 32 scales, one a column; a value is
// its int8 times its column's scale.
type quantMatrix struct {
	q4     bool
	p      []byte    // the panels' values
	scale  []float32 // the panels' scales
	levels [16]float32
}

// panels returns how many panels a k×m quantMatrix has, and the bytes
// and scales of each.
func (q *quantMatrix) panels(k, m int) (n, bytes, scales int) {
	n = (m + quantCols - 1) / quantCols
	if q.q4 {
		return n, k * quantCols / 2, k
	}
	return n, k * quantCols, quantCols
}

// newQuantMatrix lays t out as a quantMatrix in memory from alloc (see
// [denseAlloc]), and returns what frees it, or nil if t is stored in
// neither 4 bits nor int8 with a scale per column.
func newQuantMatrix(t packfile.Tensor, alloc func(bytes, scales int) ([]byte, []float32, func())) (*quantMatrix, func()) {
	if t.Kind != packfile.Q4 && t.Kind != packfile.Q8Cols {
		return nil, nil
	}
	k, m := t.Rows, t.Cols
	q := &quantMatrix{q4: t.Kind == packfile.Q4, levels: packfile.Q4Levels()}
	n, bytes, scales := q.panels(k, m)
	var free func()
	q.p, q.scale, free = alloc(n*bytes, n*scales)
	if !q.q4 {
		copy(q.scale, t.Scales())
		for i := range k {
			values := t.Q8Values(i)
			for c := 0; c < m; c += quantCols {
				copy(q.p[c*k+i*quantCols:][:quantCols], values[c:min(c+quantCols, m)])
			}
		}
		return q, free
	}
	groups := make([]float32, n)
	for i := range k {
		values := t.Q4Row(i, groups)
		nibble := func(j int) byte {
			if j >= m {
				return 0 // past the last column: never read
			}
			return values[j/2] >> (4 * (j % 2)) & 0xf
		}
		for p := range n {
			c := p * quantCols
			q.scale[p*k+i] = groups[p]
			row := q.p[p*bytes+i*quantCols/2:][:quantCols/2]
			for b := range row {
				row[b] = nibble(c+b) | nibble(c+b+quantCols/2)<<4
			}
		}
	}
	return q, free
}

// mulAddQuant is [kernel.mulAdd] for w a k×m quantMatrix: a panel at a
// time, its rows 8 at a time and the rest at once ([quantBlock]), so that
// each row of the panel is decoded once for every 8 rows; a last panel
// narrower than quantCols goes to gemmQuant.
func (kn kernel) mulAddQuant(x []float32, n, k int, w *quantMatrix, m int, y []float32, ldy int) {
	if n == 0 || k == 0 || m == 0 {
		return
	}
	panels, bytes, scales := w.panels(k, m)
	// The assembly reads and writes within these bounds.
	_, _, _, _ = x[n*k-1], w.p[panels*bytes-1], w.scale[panels*scales-1], y[(n-1)*ldy+m-1]
	for c := 0; c < m; c += quantCols {
		p := c / quantCols
		pw, scale := w.p[p*bytes:(p+1)*bytes], w.scale[p*scales:(p+1)*scales]
		if m-c < quantCols {
			gemmQuant(x, n, k, w.q4, pw, scale, &w.levels, m-c, y[c:], ldy)
			continue
		}
		for i := 0; i < n; i += 8 {
			quantBlock(min(8, n-i), k, &x[i*k], w.q4, &pw[0], &scale[0], &w.levels, &y[i*ldy+c], ldy)
		}
	}
}

// gemmQuant adds x (n rows of k values) times the first r columns of one
// panel of a quantMatrix (its values p and its scales) to y's n rows,
// ldy values apart: for a panel narrower than quantCols, and the kernels
// in Go where the assembly does not run. Each row of the panel is
// decoded as package packfile decodes it, then multiplied by.
func gemmQuant(x []float32, n, k int, q4 bool, p []byte, scale []float32, levels *[16]float32, r int, y []float32, ldy int) {
	var w [quantCols]float32
	for l := range k {
		if q4 {
			s := scale[l]
			for b, v := range p[l*quantCols/2 : (l+1)*quantCols/2] {
				w[b], w[b+quantCols/2] = levels[v&0xf]*s, levels[v>>4]*s
			}
		} else {
			for j, v := range p[l*quantCols : (l+1)*quantCols] {
				w[j] = float32(int8(v)) * scale[j]
			}
		}
		for i := range n {
			a := x[i*k+l]
			for j, e := range w[:r] {
				y[i*ldy+j] += a * e
			}
		}
	}
}
