package embed

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// TestKernelQ4 checks the Q4 kernels (Go's where the assembly does not
// run) against the product taken in float64 with the weights decoded as
// [packfile.Tensor.Matrix] decodes them, on random data and y not zero:
// every number of rows from 1 to 17 (blocks of 8, 4, 2 and 1), k odd,
// even and 1, widths of whole panels and with a narrower last one (of
// an even number of columns, as Q4 stores), and the encoder's shapes.
func TestKernelQ4(t *testing.T) {
	skipUnderRace(t)
	shapes := []struct{ k, m int }{
		{1, 32}, {3, 2}, {7, 64}, {33, 40}, {64, 30}, {100, 96}, {255, 136},
		{256, 768}, {512, 512}, {1536, 512}, {512, 1536},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, kn := range kernels() {
		if !kn.q4 {
			continue
		}
		for _, s := range shapes {
			w := make([]float32, s.k*s.m)
			for i := range w {
				w[i] = float32(rng.NormFloat64())
			}
			q, decoded := q4Of(t, s.k, s.m, w)
			for n := 1; n <= 17; n++ {
				if s.k*s.m > 1<<16 && n%4 != 1 && n != 8 && n != 16 {
					continue // the large shapes: every kind of block, not every n
				}
				t.Run(fmt.Sprintf("%v/%dx%dx%d", kn, n, s.k, s.m), func(t *testing.T) {
					x := make([]float32, n*s.k)
					for i := range x {
						x[i] = float32(rng.NormFloat64())
					}
					ldy := s.m + 3 // columns past m stay as they were
					y := make([]float32, n*ldy)
					for i := range y {
						y[i] = float32(rng.NormFloat64())
					}
					want := product(x, n, s.k, decoded, s.m, y, ldy)
					kn.mulAddQ4(x, n, s.k, q, s.m, y, ldy)
					want.check(t, y)
				})
			}
		}
	}
}

// q4Of returns w, k×m, stored as [packfile.Q4] and laid out as the
// resident model lays it out, and its values as stored.
func q4Of(t testing.TB, k, m int, w []float32) (*q4Matrix, []float32) {
	t.Helper()
	tt, err := packfile.Encode("w", packfile.Q4, k, m, w)
	if err != nil {
		t.Fatal(err)
	}
	bytes, scales := q4Size(k, m)
	q := &q4Matrix{nib: make([]byte, bytes), scale: make([]float32, scales), levels: packfile.Q4Levels()}
	groups := make([]float32, (m+q4Cols-1)/q4Cols)
	for i := range k {
		q.put(tt, i, groups)
	}
	return q, tt.Matrix()
}
