package embed

import (
	"sync"
	"sync/atomic"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// chunkCols is how many columns of a stored matrix are decoded at a time
// when it is multiplied as stored: a multiple of [panelCols], few enough
// that a chunk (768 KB at most) stays in L2 between its decoding and its
// multiply, and that the chunks, decoding included, are spread over the
// cores by [matrix.mulAdd]. 64 and 256 measured the same as 128 with the
// assembly kernels (a query of 8 tokens, load ~7 on 2 cores).
const chunkCols = 128

// A matrix is a weight matrix that activations are multiplied by, read
// as stored (int8, in the binary's read-only data). It is never decoded
// whole: that would cost 20 MB of heap and a few milliseconds, which a
// process embedding one query should not pay, and decoding a chunk of
// columns just before multiplying by it, on every core, measured as fast
// as multiplying by decoded float32 (a question, 100 turns, interleaved).
//
// A long-lived process that embeds many queries lays the matrices out once
// instead (see [LoadResident]): then, where kn.quant, quant holds the
// matrix as stored in panels (see gemm_quant.go); where kn.half, half
// holds it as float16 in panels (see gemm_half.go); otherwise dense holds
// it as float32, laid out for kn (see [kernel.put]); and a multiply is
// one call to kn.
type matrix struct {
	t     packfile.Tensor
	scale []float32    // the column scales of a Q8Cols tensor
	dense []float32    // the whole matrix decoded; nil when read as stored
	half  []uint16     // the whole matrix decoded as float16; nil unless kn.half
	quant *quantMatrix // the whole matrix as stored; nil unless kn.quant
	kn    kernel       // what multiplies by m, in whose layout it is decoded
}

func newMatrix(t packfile.Tensor, kn kernel) *matrix {
	m := &matrix{t: t, kn: kn}
	if t.Kind == packfile.Q8Cols {
		m.scale = t.Scales()
	}
	return m
}

// cols decodes columns j0 to j1 (excluded) of row i into dst.
func (m *matrix) cols(i, j0, j1 int, dst, row []float32) {
	if m.scale != nil {
		m.t.Q8Range(i, j0, j1, m.scale, dst)
		return
	}
	if m.t.Kind == packfile.Q4 {
		m.t.Q4Range(i, j0, j1, dst)
		return
	}
	m.t.Row(i, row)
	copy(dst, row[j0:j1])
}

// A scratch holds a worker's buffers for multiplying by stored matrices.
type scratch struct {
	chunk, row []float32
}

// newScratch returns n workers' buffers, big enough for any matrix of the
// encoder.
func newScratch(n int) []scratch {
	s := make([]scratch, n)
	for i := range s {
		s[i] = scratch{chunk: make([]float32, hidden*chunkCols), row: make([]float32, hidden)}
	}
	return s
}

// mulAdd adds x·m to y, for x of n rows of m.t.Rows values and y of n rows
// of m.t.Cols, with m.kn. Decoded, m is multiplied on one core (the
// resident path's query already shares the cores with the rest of a
// recall; two workers measured no faster on this 2-core machine under
// load); read as stored, each worker of scratch takes chunks of
// chunkCols columns in turn, decodes one and multiplies by it.
func (m *matrix) mulAdd(x []float32, n int, y []float32, workers []scratch) {
	kn, in, out := m.kn, m.t.Rows, m.t.Cols
	if m.quant != nil {
		kn.mulAddQuant(x, n, in, m.quant, out, y, out)
		return
	}
	if m.half != nil {
		kn.mulAddHalf(x, n, in, m.half, out, y, out)
		return
	}
	if m.dense != nil {
		kn.mulAdd(x, n, in, m.dense, out, kn.panels, y, out)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, s := range workers {
		wg.Go(func() {
			for {
				j0 := int(next.Add(chunkCols)) - chunkCols
				if j0 >= out {
					return
				}
				j1 := min(j0+chunkCols, out)
				w := j1 - j0
				for i := range in {
					m.cols(i, j0, j1, s.chunk[i*w:(i+1)*w], s.row)
				}
				// Each worker writes its own columns of y.
				kn.mulAdd(x, n, in, s.chunk[:in*w], w, false, y[j0:], out)
			}
		})
	}
	wg.Wait()
}
