package embed

import (
	"context"
	"fmt"
	"testing"
)

func mustLoadResident(t testing.TB) *Model {
	t.Helper()
	m, err := LoadResident()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestResidentGolden holds the decoded model to the reference as
// [TestEmbedGolden] holds the streaming one.
func TestResidentGolden(t *testing.T) {
	testGoldenVectors(t, mustLoadResident(t), 0.95, 0.065)
}

// TestResidentSameVectors checks that decoding the matrices once, as
// float32 or as float16, or keeping them as stored (see gemm_quant.go),
// gives the vectors of decoding them a chunk at a time, but
// for float rounding (see [closeVectors]), for the golden texts one by
// one and as one batch, and for a query cut short.
func TestResidentSameVectors(t *testing.T) {
	ctx := context.Background()
	stream := mustLoad(t)
	f32, f16 := newKernel(), newKernel()
	f32.half, f32.quant, f16.quant = false, false, false
	f16.panels, f16.half = true, true // Go's float16 panels where the assembly's do not run
	kns := []kernel{f32, f16}
	if quant := newKernel(); quant.quant || !asmKernels {
		quant.panels, quant.quant = true, true
		kns = append(kns, quant)
	}
	var texts []string
	for _, c := range readGolden(t).Vectors {
		texts = append(texts, c.Text)
	}
	cases := []struct {
		name string
		vecs func(m *Model) ([][]float32, error)
	}{
		{"batch", func(m *Model) ([][]float32, error) { return m.Vectors(ctx, texts) }},
		{"one by one", func(m *Model) ([][]float32, error) {
			var out [][]float32
			for _, text := range texts {
				v, err := m.Vectors(ctx, []string{text})
				if err != nil {
					return nil, err
				}
				out = append(out, v[0])
			}
			return out, nil
		}},
		{"query of 8 tokens", func(m *Model) ([][]float32, error) {
			var out [][]float32
			for _, text := range texts {
				v, err := m.embedQuery(ctx, text, 8)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
			}
			return out, nil
		}},
	}
	for _, kn := range kns {
		resident, err := load(packed, true, kn)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%s", kn, c.name), func(t *testing.T) {
				want, err := c.vecs(stream)
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.vecs(resident)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if msg, ok := closeVectors(kn.half && !kn.quant, got[i], want[i]); !ok {
						t.Errorf("resident vector of %q differs from the streaming one %s", texts[i], msg)
					}
				}
			})
		}
	}
}
