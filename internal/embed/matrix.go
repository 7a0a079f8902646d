package embed

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// blockRows is how many rows of a stored matrix are decoded at a time
// when it is multiplied as stored.
const blockRows = 32

// A matrix is a weight matrix that activations are multiplied by. It is
// read as stored (int8) until [matrix.decode] turns it into float32 once:
// decoding all of them takes a few milliseconds and 20 MB, which a process
// that embeds one query should not pay, and a process that embeds many
// should pay once.
type matrix struct {
	t       packfile.Tensor
	scale   []float32 // the column scales of a Q8Cols tensor
	once    sync.Once
	decoded atomic.Pointer[[]float32]
}

func newMatrix(t packfile.Tensor) *matrix {
	m := &matrix{t: t}
	if t.Kind == packfile.Q8Cols {
		m.scale = t.Scales()
	}
	return m
}

// row decodes row i into dst.
func (m *matrix) row(i int, dst []float32) {
	if m.scale != nil {
		m.t.Q8Row(i, m.scale, dst)
		return
	}
	m.t.Row(i, dst)
}

// decode decodes the whole matrix, once.
func (m *matrix) decode() {
	m.once.Do(func() {
		f := make([]float32, m.t.Rows*m.t.Cols)
		for i := range m.t.Rows {
			m.row(i, f[i*m.t.Cols:(i+1)*m.t.Cols])
		}
		m.decoded.Store(&f)
	})
}

// mulAdd adds x·m to y, for x of n rows of m.t.Rows values and y of n rows
// of m.t.Cols. Until m is decoded, it decodes blockRows rows at a time
// into scratch, which holds at least blockRows·m.t.Cols values.
func (m *matrix) mulAdd(x []float32, n int, y, scratch []float32) {
	in, out := m.t.Rows, m.t.Cols
	c := blas32.General{Rows: n, Cols: out, Stride: out, Data: y}
	if f := m.decoded.Load(); f != nil {
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas32.General{Rows: n, Cols: in, Stride: in, Data: x},
			blas32.General{Rows: in, Cols: out, Stride: out, Data: *f}, 1, c)
		return
	}
	for k := 0; k < in; k += blockRows {
		rows := min(blockRows, in-k)
		for i := range rows {
			m.row(k+i, scratch[i*out:(i+1)*out])
		}
		blas32.Gemm(blas.NoTrans, blas.NoTrans, 1,
			blas32.General{Rows: n, Cols: rows, Stride: in, Data: x[k:]},
			blas32.General{Rows: rows, Cols: out, Stride: out, Data: scratch}, 1, c)
	}
}
