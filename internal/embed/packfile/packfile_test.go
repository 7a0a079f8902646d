package packfile

import (
	"math"
	"testing"
)

func sample(t testing.TB) ([]Piece, []Tensor, [][]float32) {
	t.Helper()
	values := [][]float32{
		{0.5, -1, 0.25, 2, -0.125, 0},
		{1, 2, 3, 4, 5, 6},
		{-3, 0.001, 3, -0.002, 0, 1},
	}
	var ts []Tensor
	for i, kind := range []Kind{F32, Q8Rows, Q8Cols} {
		tt, err := Encode(string(rune('a'+i)), kind, 2, 3, values[i])
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, tt)
	}
	pieces := []Piece{{"<unk>", 0}, {"▁the", -3.5}, {"s", -4.25}}
	return pieces, ts, values
}

func TestRoundTrip(t *testing.T) {
	pieces, ts, values := sample(t)
	b, err := Write(pieces, ts)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pieces {
		if f.Pieces[i] != p {
			t.Errorf("Pieces[%d] = %v, want %v", i, f.Pieces[i], p)
		}
	}
	for i, want := range values {
		tt := f.Tensors[ts[i].Name]
		if tt.Rows != 2 || tt.Cols != 3 || tt.Kind != ts[i].Kind {
			t.Fatalf("tensor %s is %d×%d kind %d, want 2×3 kind %d", tt.Name, tt.Rows, tt.Cols, tt.Kind, ts[i].Kind)
		}
		got := tt.Matrix()
		row := make([]float32, 3)
		// int8 keeps each value within half a step, a step being at most
		// the largest magnitude over 127.
		var most float64
		for _, v := range want {
			most = max(most, math.Abs(float64(v)))
		}
		for j := range want {
			if d := math.Abs(float64(got[j] - want[j])); d > most/127/2+1e-6 {
				t.Errorf("tensor %s value %d = %v, want %v", tt.Name, j, got[j], want[j])
			}
			if j%3 == 0 {
				tt.Row(j/3, row)
				for k, v := range row {
					if v != got[j+k] {
						t.Errorf("tensor %s: Row(%d)[%d] = %v, Matrix has %v", tt.Name, j/3, k, v, got[j+k])
					}
				}
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	pieces, ts, _ := sample(t)
	b, err := Write(pieces, ts)
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]string{
		"empty":     "",
		"magic":     "mnemoUSE\x02" + string(b[9:]),
		"truncated": string(b[:40]),
		"no data":   string(b[:len(b)-1]),
	}
	for name, s := range tests {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%s) = nil error, want one", name)
		}
	}
}

// FuzzParse checks that no input makes Parse panic or hand out a tensor
// whose rows cannot be read.
func FuzzParse(f *testing.F) {
	pieces, ts, _ := sample(f)
	b, err := Write(pieces, ts)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Parse(string(b))
		if err != nil {
			return
		}
		for _, tt := range p.Tensors {
			if tt.Rows*tt.Cols > 1<<16 {
				continue
			}
			tt.Matrix()
		}
	})
}
