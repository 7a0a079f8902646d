package embed

import (
	"context"
	"math"
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

// TestResidentSameVectors checks that decoding the matrices once gives
// the vectors of decoding them a chunk at a time, but for float rounding
// (the sums are taken in another order), for the golden texts one by one
// and as one batch, and for a query cut short.
func TestResidentSameVectors(t *testing.T) {
	ctx := context.Background()
	stream, resident := mustLoad(t), mustLoadResident(t)
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
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := c.vecs(stream)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.vecs(resident)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				if (got[i] == nil) != (want[i] == nil) {
					t.Fatalf("resident vector of %q nil %v, streaming nil %v", texts[i], got[i] == nil, want[i] == nil)
				}
				diff := 0.0
				for j := range want[i] {
					diff = max(diff, math.Abs(float64(got[i][j]-want[i][j])))
				}
				if diff > 1e-5 {
					t.Errorf("resident vector of %q differs from the streaming one by up to %g, want <= 1e-5", texts[i], diff)
				}
			}
		})
	}
}
