package embed

import (
	"math"
	"runtime"
)

// encode returns the vectors of a batch of token id lists, each at most
// [MaxTokens] long. It computes what model.json's graph computes for the
// batch, one sentence's tokens after another as the rows of one matrix:
// a sentence's padding in the graph is masked out of attention and of the
// mean, so it changes nothing and is left out here.
func (w *weights) encode(batch [][]int32) [][]float32 {
	n := 0
	for _, ids := range batch {
		n += len(ids)
	}
	wk := &work{}
	if !w.dense { // decoded matrices need no workers' buffers
		wk.workers = newScratch(max(1, min(runtime.GOMAXPROCS(0), 4)))
	}
	if n <= arenaRows {
		wk.arena = w.arenas.get()
		defer w.arenas.put(wk.arena)
	}
	x := w.input(batch, n, wk)
	last := len(w.layers) - 1
	for i := range last {
		x = w.layers[i].apply(x, batch, n, wk)
	}
	out := w.pool(w.layers[last].applyMean(x, batch, n, wk), batch, wk)
	runtime.KeepAlive(w) // its decoded matrices are freed with it (see [weights.decodeMatrices])
	return out
}

// input returns the first layer's input: each token's embedding twice
// (the graph adds the timing signal to a copy of the embeddings, then the
// copy to the embeddings) plus the sinusoid of its position.
func (w *weights) input(batch [][]int32, n int, wk *work) []float32 {
	x := wk.take(n * embedWidth)
	var sig [embedWidth]float32
	r := 0
	for _, ids := range batch {
		for pos, id := range ids {
			row := x[r*embedWidth : (r+1)*embedWidth]
			w.embed.Row(int(id), row)
			s := sig[:]
			if w.signal != nil && pos < MaxTokens {
				s = w.signal[pos*embedWidth : (pos+1)*embedWidth]
			} else {
				w.positionSignal(pos, s)
			}
			for j, e := range s {
				row[j] = 2*row[j] + e
			}
			r++
		}
	}
	return x
}

// positionSignal writes the position signal of pos into s, embedWidth
// values: the sines of pos times each timescale, then their cosines.
func (w *weights) positionSignal(pos int, s []float32) {
	half := embedWidth / 2
	for j, inv := range w.timing {
		t := float64(float32(pos) * inv)
		s[j], s[half+j] = float32(math.Sin(t)), float32(math.Cos(t))
	}
}

// apply runs the layer on x (n rows of l.in values) and returns its
// output, n rows of [width] values.
func (l *layer) apply(x []float32, batch [][]int32, n int, wk *work) []float32 {
	y := l.attention(x, batch, n, wk)
	f := l.hidden(y, n, wk)
	f = linear(f, n, l.ffn2W, l.ffn2B, wk)
	for i := range y {
		y[i] += f[i]
	}
	return y
}

// applyMean returns the mean of each sentence's rows of the layer's
// output (zeros for a sentence without tokens), which is all the pooling
// reads of the last layer. The feed-forward's second matrix is linear, so
// it multiplies the mean of its inputs instead of each token's: the same
// vector but for float rounding, for a sixth of the encoder's work per
// token.
func (l *layer) applyMean(x []float32, batch [][]int32, n int, wk *work) []float32 {
	y := l.attention(x, batch, n, wk)
	f := linear(means(l.hidden(y, n, wk), batch, hidden, wk), len(batch), l.ffn2W, l.ffn2B, wk)
	mean := means(y, batch, width, wk)
	for b, ids := range batch {
		if len(ids) == 0 {
			continue // a mean of no rows, without the bias
		}
		for j := b * width; j < (b+1)*width; j++ {
			mean[j] += f[j]
		}
	}
	return mean
}

// means returns the mean of each sentence's rows of x (d values a row),
// zeros for a sentence without tokens.
func means(x []float32, batch [][]int32, d int, wk *work) []float32 {
	mean := wk.take(len(batch) * d)
	r := 0
	for b, ids := range batch {
		m := mean[b*d : (b+1)*d]
		for range ids {
			for j, v := range x[r*d : (r+1)*d] {
				m[j] += v
			}
			r++
		}
		inv := float32(max(len(ids), 1))
		for j := range m {
			m[j] /= inv
		}
	}
	return mean
}

// hidden returns the feed-forward's inner activations of y (n rows of
// [width] values): its normalised rows through the first matrix and a
// ReLU.
func (l *layer) hidden(y []float32, n int, wk *work) []float32 {
	h := layerNorm(y, width, l.ln2Scale, l.ln2Bias, wk)
	f := linear(h, n, l.ffn1W, l.ffn1B, wk)
	for i, v := range f {
		f[i] = max(v, 0)
	}
	return f
}

// attention returns the layer's output before its feed-forward: the
// attention of x's normalised rows, projected, plus x (projected to
// [width] when l.in differs).
func (l *layer) attention(x []float32, batch [][]int32, n int, wk *work) []float32 {
	h := layerNorm(x, l.in, l.ln1Scale, l.ln1Bias, wk)
	qkv := linear(h, n, l.qkvW, l.qkvB, wk)
	att := wk.take(n * l.in)
	r := 0
	for _, ids := range batch {
		l.attend(qkv[r*3*l.in:], att[r*l.in:], len(ids), wk)
		r += len(ids)
	}
	y := linear(att, n, l.outW, l.outB, wk)
	res := x
	if l.resW != nil {
		res = linear(x, n, l.resW, l.resB, wk)
	}
	for i := range y {
		y[i] += res[i]
	}
	return y
}

// attend computes the attention of one sentence of n tokens: qkv holds
// its rows of queries, keys and values (3·l.in wide), and out receives
// the heads' outputs side by side (l.in wide). Each head's two products
// go through the layer's [kernel], its queries, keys (transposed) and
// values first copied out whole: n·l.in values each, against the n²·l.in
// multiply-adds they feed.
func (l *layer) attend(qkv, out []float32, n int, wk *work) {
	if n == 0 {
		return
	}
	kn, hw, ld := l.qkvW.kn, l.in/heads, 3*l.in
	// The keys' columns, the scores' columns and the values' rows are
	// padded with zeros to whole panels, so that the assembly kernels
	// take every product (a query's few tokens are narrower than one
	// panel, which left the keys' product to plain Go); the zeros add
	// nothing.
	np := (n + panelCols - 1) &^ (panelCols - 1)
	q, kt, v := wk.take(n*hw), wk.take(hw*np), wk.take(np*hw)
	scores := wk.take(n * np)
	for h := range heads {
		for i := range n {
			row := qkv[i*ld+h*hw:]
			copy(q[i*hw:(i+1)*hw], row[:hw])
			for t, e := range row[l.in : l.in+hw] {
				kt[t*np+i] = e
			}
			copy(v[i*hw:(i+1)*hw], row[2*l.in:2*l.in+hw])
		}
		clear(scores)
		kn.mulAdd(q, n, hw, kt, np, false, scores, np)
		for i := range n {
			row := scores[i*np : i*np+n]
			for j := range row {
				row[j] *= l.scale
			}
			softmax(row)
		}
		kn.mulAdd(scores, n, np, v, hw, false, out[h*hw:], l.in)
	}
}

// pool returns each sentence's vector from the mean of its tokens' rows
// of the last layer (see [layer.applyMean]): through a tanh layer, scaled
// to length 1. A sentence without tokens has a mean of zeros, as in the
// graph.
func (w *weights) pool(mean []float32, batch [][]int32, wk *work) [][]float32 {
	// Not from the arena: the vectors returned are slices of y.
	y := linear(mean, len(batch), w.poolW, w.poolB, &work{workers: wk.workers})
	out := make([][]float32, len(batch))
	for b := range out {
		v := y[b*width : (b+1)*width : (b+1)*width]
		var ss float32
		for j, e := range v {
			v[j] = float32(math.Tanh(float64(e)))
			ss += v[j] * v[j]
		}
		inv := float32(1 / math.Sqrt(float64(max(ss, l2Epsilon))))
		for j := range v {
			v[j] *= inv
		}
		out[b] = v
	}
	return out
}

// linear returns x·w + b for x of n rows, multiplied with wk's workers.
func linear(x []float32, n int, w *matrix, b []float32, wk *work) []float32 {
	out := w.t.Cols
	y := wk.take(n * out)
	for i := range n {
		copy(y[i*out:(i+1)*out], b)
	}
	if n > 0 {
		w.mulAdd(x, n, y, wk.workers)
	}
	return y
}

// layerNorm returns each row of x (d values) less its mean, over its
// standard deviation, times scale plus bias.
func layerNorm(x []float32, d int, scale, bias []float32, wk *work) []float32 {
	y := wk.take(len(x))
	for r := 0; r < len(x); r += d {
		row, out := x[r:r+d], y[r:r+d]
		mean := sum4(row) / float32(d)
		inv := float32(1 / math.Sqrt(float64(squares4(row, mean)/float32(d)+lnEpsilon)))
		for j, v := range row {
			out[j] = scale[j]*inv*(v-mean) + bias[j]
		}
	}
	return y
}

// sum4 returns the sum of v's values in four sums of every fourth value,
// added at the end: four chains of additions, which a core runs side by
// side, rather than one, each waiting for the last (a layer
// normalization's two sums were 4% of a question's time).
func sum4(v []float32) float32 {
	var s [4]float32
	i := 0
	for ; i+4 <= len(v); i += 4 {
		s[0], s[1], s[2], s[3] = s[0]+v[i], s[1]+v[i+1], s[2]+v[i+2], s[3]+v[i+3]
	}
	for ; i < len(v); i++ {
		s[0] += v[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// squares4 is [sum4] of the squares of v's values' distances to mean.
func squares4(v []float32, mean float32) float32 {
	var s [4]float32
	i := 0
	for ; i+4 <= len(v); i += 4 {
		a, b, c, d := v[i]-mean, v[i+1]-mean, v[i+2]-mean, v[i+3]-mean
		s[0], s[1], s[2], s[3] = s[0]+a*a, s[1]+b*b, s[2]+c*c, s[3]+d*d
	}
	for ; i < len(v); i++ {
		a := v[i] - mean
		s[0] += a * a
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// softmax replaces v by its softmax.
func softmax(v []float32) {
	m := v[0]
	for _, e := range v {
		m = max(m, e)
	}
	var sum float32
	for i, e := range v {
		v[i] = float32(math.Exp(float64(e - m)))
		sum += v[i]
	}
	for i := range v {
		v[i] /= sum
	}
}
