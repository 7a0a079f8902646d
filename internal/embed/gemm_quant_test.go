package embed

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
)

// TestKernelQuant checks the kernels of the matrices kept as stored
// (Go's where the assembly does not run), 4-bit and int8, against the
// product taken in float64 with the weights decoded as
// [packfile.Tensor.Matrix] decodes them, on random data and y not zero:
// every number of rows from 1 to 17 (blocks of 8 and every rest), k odd,
// even and 1, widths of whole panels and with a narrower last one (of an
// even number of columns, as Q4 stores), and the encoder's shapes.
func TestKernelQuant(t *testing.T) {
	skipUnderRace(t)
	shapes := []struct{ k, m int }{
		{1, 32}, {3, 2}, {7, 64}, {33, 40}, {64, 30}, {100, 96}, {255, 136},
		{256, 768}, {512, 512}, {1536, 512}, {512, 1536},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for _, kn := range kernels() {
		if !kn.quant {
			continue
		}
		for _, kind := range []packfile.Kind{packfile.Q4, packfile.Q8Cols} {
			for _, s := range shapes {
				w := make([]float32, s.k*s.m)
				for i := range w {
					w[i] = float32(rng.NormFloat64())
				}
				q, decoded := quantOf(t, kind, s.k, s.m, w)
				for n := 1; n <= 17; n++ {
					t.Run(fmt.Sprintf("%v/%s/%dx%dx%d", kn, kindName(kind), n, s.k, s.m), func(t *testing.T) {
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
						kn.mulAddQuant(x, n, s.k, q, s.m, y, ldy)
						want.check(t, y)
					})
				}
			}
		}
	}
}

func kindName(k packfile.Kind) string {
	if k == packfile.Q4 {
		return "q4"
	}
	return "q8"
}

// quantOf returns w, k×m, stored as kind and laid out as the resident
// model lays it out, and its values as stored.
func quantOf(t testing.TB, kind packfile.Kind, k, m int, w []float32) (*quantMatrix, []float32) {
	t.Helper()
	tt, err := packfile.Encode("w", kind, k, m, w)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := newQuantMatrix(tt, func(bytes, scales int) ([]byte, []float32, func()) {
		return make([]byte, bytes), make([]float32, scales), func() {}
	})
	return q, tt.Matrix()
}
