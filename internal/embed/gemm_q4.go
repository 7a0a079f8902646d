// The resident matrices stored in 4 bits ([packfile.Q4]) multiplied by as
// they are stored, with AVX-512 (kernel.q4). MEASURED: see below.

package embed

import "github.com/mnemo-dev/mnemo/internal/embed/packfile"

// q4Cols is the width of a panel of a resident [packfile.Q4] matrix: one
// group of columns, which share a scale in each row.
const q4Cols = packfile.Q4Group

// A q4Matrix is a k×m [packfile.Q4] matrix as stored, laid out for the Q4
// kernels: in panels of q4Cols columns, one after another (the last
// padded to q4Cols), each k rows of 16 bytes, byte b holding the level
// index of column b in its low nibble and of column b+16 in its high;
// and for each panel its k scales, as float32. A value is its level
// times its row's scale, as [packfile.Tensor.Q4Range] decodes it.
type q4Matrix struct {
	nib    []byte
	scale  []float32
	levels [16]float32 // [packfile.Q4Levels]
}

// q4Size returns how many bytes and scales a q4Matrix of k×m takes.
func q4Size(k, m int) (bytes, scales int) {
	panels := (m + q4Cols - 1) / q4Cols
	return panels * k * q4Cols / 2, panels * k
}

// put stores row i of t, a k×m [packfile.Q4] tensor, into q; scales
// holds at least a scale per group of the row.
func (q *q4Matrix) put(t packfile.Tensor, i int, scales []float32) {
	k, m := t.Rows, t.Cols
	values := t.Q4Row(i, scales)
	nibble := func(j int) byte {
		if j >= m {
			return 0 // past the last column: never read
		}
		return values[j/2] >> (4 * (j % 2)) & 0xf
	}
	for p := range (m + q4Cols - 1) / q4Cols {
		c := p * q4Cols
		q.scale[p*k+i] = scales[p]
		row := q.nib[(p*k+i)*q4Cols/2 : (p*k+i+1)*q4Cols/2]
		for b := range row {
			row[b] = nibble(c+b) | nibble(c+b+q4Cols/2)<<4
		}
	}
}

// mulAddQ4 is [kernel.mulAdd] for w a k×m q4Matrix: a panel at a time,
// its rows 8, 4, 2 and 1 at a time (q4r8, q4r4, q4r2, q4r1); a last panel
// narrower than q4Cols goes to gemmQ4.
func (kn kernel) mulAddQ4(x []float32, n, k int, w *q4Matrix, m int, y []float32, ldy int) {
	if n == 0 || k == 0 || m == 0 {
		return
	}
	bytes, scales := q4Size(k, m)
	// The assembly reads and writes within these bounds.
	_, _, _, _ = x[n*k-1], w.nib[bytes-1], w.scale[scales-1], y[(n-1)*ldy+m-1]
	for c := 0; c < m; c += q4Cols {
		nib, scale := w.nib[c*k/2:], w.scale[c/q4Cols*k:]
		if m-c < q4Cols {
			gemmQ4(x, n, k, nib, scale, &w.levels, m-c, y[c:], ldy)
			continue
		}
		i := 0
		for ; i+8 <= n; i += 8 {
			q4r8(k, &x[i*k], &nib[0], &scale[0], &w.levels, &y[i*ldy+c], ldy)
		}
		if i+4 <= n {
			q4r4(k, &x[i*k], &nib[0], &scale[0], &w.levels, &y[i*ldy+c], ldy)
			i += 4
		}
		if i+2 <= n {
			q4r2(k, &x[i*k], &nib[0], &scale[0], &w.levels, &y[i*ldy+c], ldy)
			i += 2
		}
		if i < n {
			q4r1(k, &x[i*k], &nib[0], &scale[0], &w.levels, &y[i*ldy+c])
		}
	}
}

// gemmQ4 adds x (n rows of k values) times the first r columns of one
// panel of a q4Matrix (its bytes nib and its scales) to y's n rows, ldy
// values apart: for a panel narrower than q4Cols, and the Q4 kernels in
// Go where the assembly does not run. Each row of the panel is decoded
// as [packfile.Tensor.Q4Range] decodes it, then multiplied.
func gemmQ4(x []float32, n, k int, nib []byte, scale []float32, levels *[16]float32, r int, y []float32, ldy int) {
	var w [q4Cols]float32
	for l, s := range scale[:k] {
		for b, v := range nib[l*q4Cols/2 : (l+1)*q4Cols/2] {
			w[b], w[b+q4Cols/2] = levels[v&0xf]*s, levels[v>>4]*s
		}
		for i := range n {
			a := x[i*k+l]
			for j, e := range w[:r] {
				y[i*ldy+j] += a * e
			}
		}
	}
}
