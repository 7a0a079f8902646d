package embed

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed/packfile"
	"github.com/mnemo-dev/mnemo/internal/race"
)

// TestKernelMulAdd checks every kernel, the assembly ones with panels
// (Go's where they do not run), of float32 or float16 (against the
// float16-rounded weights), and gonum's, against the product taken in
// float64, on random data and y not zero, for shapes with every kind of
// edge: one row, rows not a multiple of 4, columns not a multiple of 16
// (or fewer than 16), k odd or below the one-row kernel's 4, and the
// encoder's own shapes.
func TestKernelMulAdd(t *testing.T) {
	skipUnderRace(t)
	shapes := []struct{ n, k, m int }{
		{1, 1, 1}, {1, 3, 16}, {1, 4, 16}, {1, 5, 16}, {1, 7, 17}, {1, 256, 768},
		{1, 1536, 512}, {2, 9, 32}, {3, 33, 15}, {4, 1, 16}, {4, 17, 48}, {5, 64, 40},
		{6, 255, 64}, {7, 100, 33}, {8, 512, 512}, {10, 256, 768}, {10, 512, 1536},
		{13, 1536, 512}, {16, 31, 144}, {128, 768, 128},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kn := range kernels() {
		for _, panels := range []bool{true, false} {
			for _, s := range shapes {
				name := fmt.Sprintf("%s/w in panels=%v/%dx%dx%d", kn, panels, s.n, s.k, s.m)
				t.Run(name, func(t *testing.T) {
					testMulAdd(t, kn, panels, s.n, s.k, s.m, rng)
				})
			}
		}
	}
}

// skipUnderRace skips a test of the kernels' arithmetic under the race
// detector, which finds nothing there and made TestKernelMulAdd take 173 s
// and TestKernelSameVectors minutes more (the reference sums and the Go
// kernels instrumented); .ci/run runs them without it. The model's
// multiplication split across goroutines is checked under the detector by
// TestEmbedGolden, TestResidentGolden and TestResidentSameVectors.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if race.Enabled {
		t.Skip("arithmetic on one goroutine: run without -race (see skipUnderRace)")
	}
}

// kernels returns every kernel this processor runs, with float32 and
// float16 panels, and with the matrices kept as stored (Go's kernels for
// each where the assembly's do not run).
func kernels() []kernel {
	panels, zmm, half := haveKernel()
	ks := []kernel{{}}
	if panels || !asmKernels {
		ks = append(ks, kernel{panels: true})
	}
	if half || !asmKernels {
		ks = append(ks, kernel{panels: true, half: true})
	}
	if zmm {
		ks = append(ks, kernel{panels: true, zmm: true})
	}
	if zmm || !asmKernels {
		ks = append(ks, kernel{panels: true, zmm: zmm, half: half || !asmKernels, quant: true})
	}
	return ks
}

func (kn kernel) String() string {
	name := "gonum"
	switch {
	case kn.zmm:
		name = "avx512"
	case kn.panels:
		name = "panels"
	}
	if kn.half {
		name += "-f16"
	}
	if kn.quant {
		name += "-quant"
	}
	return name
}

func testMulAdd(t *testing.T, kn kernel, panels bool, n, k, m int, rng *rand.Rand) {
	random := func(size int) []float32 {
		v := make([]float32, size)
		for i := range v {
			v[i] = float32(rng.NormFloat64())
		}
		return v
	}
	x, w := random(n*k), random(k*m)
	ldy := m + 3 // y's rows are apart by more than m: columns past m stay as they were
	y := random(n * ldy)
	half := kn.half && panels // the resident float16 path
	var halves []uint16
	if half {
		halves = make([]uint16, k*m)
		kn.toHalves(halves, w)
		for i, h := range halves {
			w[i] = fromHalf(h) // the weights the kernel multiplies by
		}
	}
	laid, laidHalves := w, make([]uint16, k*m)
	if panels {
		laid = make([]float32, k*m)
		for l := range k {
			kernel{panels: true}.put(laid, k, m, l, w[l*m:(l+1)*m])
			if half {
				layPanels(laidHalves, k, m, l, halves[l*m:(l+1)*m])
			}
		}
	}
	want := product(x, n, k, w, m, y, ldy)
	if half {
		kn.mulAddHalf(x, n, k, laidHalves, m, y, ldy)
	} else {
		kn.mulAdd(x, n, k, laid, m, panels, y, ldy)
	}
	want.check(t, y)
}

// A sum is y + x·w taken in float64, and what float32 rounding may move
// each of its values by.
type sum struct {
	want, bound []float64
	ldy         int
}

// product returns y + x·w for x of n rows of k values, w of k rows of m
// values and y of n rows ldy values apart.
func product(x []float32, n, k int, w []float32, m int, y []float32, ldy int) sum {
	s := sum{want: make([]float64, len(y)), bound: make([]float64, len(y)), ldy: ldy}
	for i := range s.want {
		s.want[i] = float64(y[i])
	}
	for i := range n {
		for j := range m {
			for l := range k {
				p := float64(x[i*k+l]) * float64(w[l*m+j])
				s.want[i*ldy+j] += p
				s.bound[i*ldy+j] += math.Abs(p)
			}
		}
	}
	return s
}

// check fails t unless y is s but for float32 rounding.
func (s sum) check(t *testing.T, y []float32) {
	t.Helper()
	for i, v := range y {
		tol := 1e-6*s.bound[i] + 1e-6*math.Abs(s.want[i])
		if d := math.Abs(float64(v) - s.want[i]); d > tol {
			t.Fatalf("y[%d, %d] = %g, want %g (off by %g, more than %g)", i/s.ldy, i%s.ldy, v, s.want[i], d, tol)
		}
	}
}

// TestKernelSameVectors checks that the model gives the same vectors, but
// for float rounding, whichever kernel multiplies (the panels one is Go's
// where the assembly does not run), its matrices read as stored or
// decoded once, and that gonum's still matches the reference as
// [TestEmbedGolden] says.
func TestKernelSameVectors(t *testing.T) {
	skipUnderRace(t)
	ctx := context.Background()
	var texts []string
	for _, c := range readGolden(t).Vectors {
		texts = append(texts, c.Text)
	}
	for _, resident := range []bool{false, true} {
		t.Run(fmt.Sprintf("resident=%v", resident), func(t *testing.T) {
			ks := kernels()
			vecs := make([][][]float32, len(ks))
			for i, kn := range ks {
				m, err := load(packed, resident, kn)
				if err != nil {
					t.Fatal(err)
				}
				if !kn.panels {
					testGoldenVectors(t, m, 0.95, 0.065)
				}
				if vecs[i], err = m.Vectors(ctx, texts); err != nil {
					t.Fatal(err)
				}
			}
			for k, kn := range ks[1:] {
				for i, want := range vecs[0] {
					if msg, ok := closeVectors(kn.half && !kn.quant && resident, vecs[k+1][i], want); !ok {
						t.Errorf("vector of %q by %v differs from gonum's: %s", texts[i], kn, msg)
					}
				}
			}
		})
	}
}

// closeVectors tells whether got is want, the same text's vector by
// another kernel or path, but for float rounding, and if not how far
// it is. With float32 weights, or weights as stored (decoded to float32
// as the kernels multiply), the sums are taken in another order: 1e-5 in
// any value. With float16 weights, each rounded by up to 2^-11 of
// itself: 1e-3 in any value and 5e-6 in 1-cosine, five and ten times the
// most measured over 516 texts (the golden ones, 200 LoCoMo questions and
// 300 turns), 2.1e-4 and 4.9e-7.
func closeVectors(half bool, got, want []float32) (string, bool) {
	if got == nil || want == nil { // a text the model cannot read
		return fmt.Sprintf("nil %v, want nil %v", got == nil, want == nil), (got == nil) == (want == nil)
	}
	diff := 0.0
	for j := range want {
		diff = max(diff, math.Abs(float64(got[j]-want[j])))
	}
	if !half {
		return fmt.Sprintf("by up to %g, want <= 1e-5", diff), diff <= 1e-5
	}
	off := 1 - Cosine(got, want)
	return fmt.Sprintf("by up to %g (want <= 1e-3), 1-cosine %g (want <= 5e-6)", diff, off), diff <= 1e-3 && off <= 5e-6
}

// BenchmarkKernel multiplies n rows by the encoder's largest matrix
// shape (512×1536), decoded as resident, with each kernel (float32 or
// float16 panels, or 4-bit as stored).
func BenchmarkKernel(b *testing.B) {
	const k, m = width, hidden
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float32, k*m)
	for i := range w {
		w[i] = float32(rng.NormFloat64())
	}
	for _, kn := range kernels() {
		laid := make([]float32, k*m)
		for l := range k {
			kn.put(laid, k, m, l, w[l*m:(l+1)*m])
		}
		var q *quantMatrix
		if kn.quant {
			q, _ = quantOf(b, packfile.Q4, k, m, w)
		}
		halves := make([]uint16, k*m)
		if kn.half {
			line := make([]uint16, m)
			for l := range k {
				kn.toHalves(line, w[l*m:(l+1)*m])
				layPanels(halves, k, m, l, line)
			}
		}
		for _, n := range []int{1, 2, 3, 4, 6, 8, 10, 13, 16} {
			x, y := make([]float32, n*k), make([]float32, n*m)
			for i := range x { // not zeros: gonum skips those
				x[i] = float32(rng.NormFloat64())
			}
			b.Run(fmt.Sprintf("%v/%d", kn, n), func(b *testing.B) {
				for b.Loop() {
					switch {
					case kn.quant:
						kn.mulAddQuant(x, n, k, q, m, y, m)
					case kn.half:
						kn.mulAddHalf(x, n, k, halves, m, y, m)
					default:
						kn.mulAdd(x, n, k, laid, m, kn.panels, y, m)
					}
				}
			})
		}
	}
}

// TestSums: sum4 and squares4 agree with a sum in float64, whatever the
// length (the values past the last four go to one sum).
func TestSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 3, 4, 5, 255, 256, 512, 513} {
		v := make([]float32, n)
		var sum, sq float64
		for i := range v {
			v[i] = float32(rng.NormFloat64())
			sum += float64(v[i])
		}
		mean := float32(0.25)
		for _, e := range v {
			sq += float64(e-mean) * float64(e-mean)
		}
		if got := sum4(v); math.Abs(float64(got)-sum) > 1e-4*(1+math.Abs(sum)) {
			t.Errorf("sum4 of %d values = %v, want %v", n, got, sum)
		}
		if got := squares4(v, mean); math.Abs(float64(got)-sq) > 1e-4*(1+sq) {
			t.Errorf("squares4 of %d values = %v, want %v", n, got, sq)
		}
	}
}
