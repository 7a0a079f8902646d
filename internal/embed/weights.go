package embed

import (
	"fmt"
	"math"
	"runtime"
	"strconv"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// The encoder's shape, as model.json has it (gen/pack checks the graph's
// constants against these).
const (
	vocabRows  = 8002 // rows of the embedding table
	embedWidth = 256  // token embeddings and the first layer's input
	width      = 512  // every layer's output
	hidden     = 1536 // the feed-forward layers' inner width
	heads      = 4
	lnEpsilon  = 1e-6
	l2Epsilon  = 1e-12
)

// A layer is one transformer layer's weights. Matrices are input by
// output.
type layer struct {
	in                int     // input width
	scale             float32 // 1/√(head width), applied to the queries
	ln1Scale, ln1Bias []float32
	qkvW              *matrix // in × 3·in: queries, keys, values
	qkvB              []float32
	outW              *matrix // in × width
	outB              []float32
	resW              *matrix // in × width; nil when the residual is the input itself
	resB              []float32
	ln2Scale, ln2Bias []float32
	ffn1W             *matrix // width × hidden
	ffn1B             []float32
	ffn2W             *matrix // hidden × width
	ffn2B             []float32
}

// weights are the encoder's weights: vectors decoded to float32, matrices
// as stored (see [matrix]), and the embedding table as stored, of which
// only the rows of the tokens seen are decoded.
type weights struct {
	embed  packfile.Tensor
	timing []float32 // inverse timescales of the position signal
	// signal holds the position signal of every position, MaxTokens rows
	// of embedWidth values, when every matrix is decoded (see
	// [weights.decodeMatrices]); nil otherwise: then [weights.input]
	// computes it for each token.
	signal []float32
	layers [2]layer
	poolW  *matrix // width × width, then tanh
	poolB  []float32
	dense  bool      // every matrix is decoded (see [weights.decodeMatrices])
	arenas arenaPool // for the buffers of encodes of one text (see [arena])
}

// decodeMatrices lays every matrix of w out for its kernel, outside the
// heap (see [denseAlloc]): as stored, in panels, where the kernel keeps
// them so (3.3 MB; see gemm_quant.go); decoded to float16 in panels where
// it has float16 panels (9.8 MB; see gemm_half.go); decoded to float32
// otherwise (20 MB; see [kernel.put]). Multiplying by one is then a single
// call to the kernel (see [LoadResident]). The embedding table stays as
// stored: a query decodes only its own tokens' rows.
func (w *weights) decodeMatrices() {
	ms := []*matrix{w.poolW}
	for i := range w.layers {
		l := &w.layers[i]
		ms = append(ms, l.qkvW, l.outW, l.ffn1W, l.ffn2W)
		if l.resW != nil {
			ms = append(ms, l.resW)
		}
	}
	var free []func()
	for _, m := range ms {
		free = append(free, m.decode())
	}
	w.dense = true
	w.signal = make([]float32, MaxTokens*embedWidth)
	for pos := range MaxTokens {
		w.positionSignal(pos, w.signal[pos*embedWidth:(pos+1)*embedWidth])
	}
	// The matrices are reachable only through w: once w is, they are free.
	runtime.AddCleanup(w, func(free []func()) {
		for _, f := range free {
			f()
		}
	}, free)
}

// decode lays m out whole into m.quant, m.half or m.dense (see
// [weights.decodeMatrices]) and returns what frees it.
func (m *matrix) decode() (free func()) {
	rows, cols := m.t.Rows, m.t.Cols
	if m.kn.quant {
		if m.quant, free = newQuantMatrix(m.t, quantAlloc); m.quant != nil {
			return free
		}
	}
	row, line := make([]float32, hidden), make([]float32, cols)
	if !m.kn.half {
		m.dense, free = denseAlloc[float32](rows * cols)
		for i := range rows {
			m.cols(i, 0, cols, line, row)
			m.kn.put(m.dense, rows, cols, i, line)
		}
		return free
	}
	halves := make([]uint16, cols)
	m.half, free = denseAlloc[uint16](rows * cols)
	for i := range rows {
		m.cols(i, 0, cols, line, row)
		m.kn.toHalves(halves, line)
		layPanels(m.half, rows, cols, i, halves)
	}
	return free
}

// quantAlloc allocates a [quantMatrix]'s values and scales with
// [denseAlloc].
func quantAlloc(bytes, scales int) ([]byte, []float32, func()) {
	p, freeP := denseAlloc[byte](bytes)
	s, freeS := denseAlloc[float32](scales)
	return p, s, func() { freeP(); freeS() }
}

// decodeWeights reads f's tensors, checking each one's shape, for
// multiplying by with kn.
func decodeWeights(f *packfile.File, kn kernel) (*weights, error) {
	d := decoder{f: f, kn: kn}
	w := &weights{
		embed:  d.tensor("embed", vocabRows, embedWidth),
		timing: d.vector("timing", embedWidth/2),
		poolW:  d.matrix("pool.w", width, width),
		poolB:  d.vector("pool.b", width),
	}
	for i, in := range []int{embedWidth, width} {
		p := "l" + strconv.Itoa(i) + "."
		l := &w.layers[i]
		*l = layer{
			in:       in,
			ln1Scale: d.vector(p+"ln1.scale", in),
			ln1Bias:  d.vector(p+"ln1.bias", in),
			qkvW:     d.matrix(p+"qkv.w", in, 3*in),
			qkvB:     d.vector(p+"qkv.b", 3*in),
			outW:     d.matrix(p+"out.w", in, width),
			outB:     d.vector(p+"out.b", width),
			ln2Scale: d.vector(p+"ln2.scale", width),
			ln2Bias:  d.vector(p+"ln2.bias", width),
			ffn1W:    d.matrix(p+"ffn1.w", width, hidden),
			ffn1B:    d.vector(p+"ffn1.b", hidden),
			ffn2W:    d.matrix(p+"ffn2.w", hidden, width),
			ffn2B:    d.vector(p+"ffn2.b", width),
		}
		l.scale = float32(1 / math.Sqrt(float64(in/heads)))
		if in != width {
			l.resW = d.matrix(p+"res.w", in, width)
			l.resB = d.vector(p+"res.b", width)
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return w, nil
}

// A decoder looks tensors up by name, keeping the first error; its
// matrices are multiplied by with kn.
type decoder struct {
	f   *packfile.File
	kn  kernel
	err error
}

func (d *decoder) tensor(name string, rows, cols int) packfile.Tensor {
	t, ok := d.f.Tensors[name]
	switch {
	case d.err != nil:
	case !ok:
		d.err = fmt.Errorf("no tensor %s", name)
	case t.Rows != rows || t.Cols != cols:
		d.err = fmt.Errorf("tensor %s is %d×%d, want %d×%d", name, t.Rows, t.Cols, rows, cols)
	}
	return t
}

func (d *decoder) matrix(name string, rows, cols int) *matrix {
	return newMatrix(d.tensor(name, rows, cols), d.kn)
}

func (d *decoder) vector(name string, n int) []float32 {
	t := d.tensor(name, 1, n)
	if d.err != nil {
		return nil
	}
	return t.Matrix()
}
