package index

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// TestDots compares the kernel and the Go fallback with a float64 dot
// product of the query and the dequantized vectors, on vectors of several
// lengths (multiples of 8 and 32 and not), counts that fill no block,
// and edge values: zero vectors, a scale of 0, the extreme int8 codes.
func TestDots(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n, dim int) ([]byte, []float32) {
		codes, scales := make([]byte, n*dim), make([]float32, n)
		for i := range codes {
			codes[i] = byte(r.IntN(256))
		}
		for i := range scales {
			scales[i] = r.Float32() / 127
		}
		return codes, scales
	}
	tests := []struct {
		name   string
		n, dim int
		fill   func(codes []byte, scales []float32)
	}{
		{"512", 37, 512, nil},
		{"one", 1, 512, nil},
		{"none", 0, 512, nil},
		{"8", 5, 8, nil},
		{"40", 9, 40, nil},
		{"96", 3, 96, nil},
		{"1", 4, 1, nil},
		{"7", 6, 7, nil},
		{"513", 3, 513, nil},
		{"zero vectors", 4, 512, func(codes []byte, _ []float32) { clear(codes) }},
		{"scale 0", 4, 64, func(_ []byte, scales []float32) { clear(scales) }},
		{"extremes", 3, 520, func(codes []byte, scales []float32) {
			for i := range codes {
				codes[i] = byte([]int8{-128, 127, -127}[i%3])
			}
			scales[1] = math.MaxFloat32 / 1e6
		}},
	}
	kernels := append([]kernel{{"dots", dots}, {"generic", dotsGeneric}}, archKernels()...)
	for _, tt := range tests {
		codes, scales := random(tt.n, tt.dim)
		if tt.fill != nil {
			tt.fill(codes, scales)
		}
		q := randomUnit(r, tt.dim)
		for _, k := range kernels {
			t.Run(fmt.Sprintf("%s/%s", tt.name, k.name), func(t *testing.T) {
				got := make([]float32, tt.n)
				for i := range got {
					got[i] = float32(math.NaN()) // each must be written
				}
				k.f(codes, scales, q, got, tt.dim)
				for i, g := range got {
					want, size := dot64(codes[i*tt.dim:(i+1)*tt.dim], scales[i], q)
					if d := math.Abs(float64(g) - want); !(d <= 2e-6*size) {
						t.Errorf("vector %d = %g, want %g (off by %.2g of %g)", i, g, want, d, size)
					}
				}
			})
		}
	}
}

// A kernel is an implementation of [dots].
type kernel struct {
	name string
	f    func(codes []byte, scales, q, out []float32, dim int)
}

// dot64 is the dot product of q with the vector of codes times scale, in
// float64, and the sum of the products' sizes, which bounds the rounding
// error of any float32 order of adding them.
func dot64(codes []byte, scale float32, q []float32) (dot, size float64) {
	for j, c := range codes {
		p := float64(int8(c)) * float64(scale) * float64(q[j])
		dot += p
		size += math.Abs(p)
	}
	return dot, size
}

func randomUnit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	var n float64
	for j := range v {
		v[j] = float32(r.NormFloat64())
		n += float64(v[j]) * float64(v[j])
	}
	for j := range v {
		v[j] /= float32(math.Sqrt(n))
	}
	return v
}

// BenchmarkDots times the kernels alone over 10,000 vectors of 512 (5 MB,
// more than a core's caches) and over 256 (128 KB, in them): the
// difference is what reading memory costs. "gonum" is the scan before
// them, gonum's Sgemv over the vectors as float32 (20 MB at 10,000).
func BenchmarkDots(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10_000, 256} {
		codes, scales := make([]byte, n*512), make([]float32, n)
		for i := range codes {
			codes[i] = byte(r.IntN(256))
		}
		floats := make([]float32, n*512)
		for i, c := range codes {
			floats[i] = float32(int8(c)) * scales[i/512]
		}
		gonum := func(_ []byte, _, q, out []float32, dim int) {
			blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: n, Cols: dim, Stride: dim, Data: floats},
				blas32.Vector{N: dim, Inc: 1, Data: q}, 0, blas32.Vector{N: n, Inc: 1, Data: out})
		}
		q, out := randomUnit(r, 512), make([]float32, n)
		for _, k := range append([]kernel{{"dots", dots}, {"generic", dotsGeneric}, {"gonum", gonum}}, archKernels()...) {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				for b.Loop() {
					k.f(codes, scales, q, out, 512)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/vector")
			})
		}
	}
}
