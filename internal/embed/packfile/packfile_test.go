package packfile

import (
	"math"
	"slices"
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

// TestQ4: 4-bit values come back as the level nearest each value, in
// groups of Q4Group with their own scale, through Row and Q4Range alike.
func TestQ4(t *testing.T) {
	const rows, cols = 3, 2*Q4Group + 6 // a short last group
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(math.Sin(float64(i))) * float32(1+i%7)
	}
	v[5] = 40 // an outlier, clipped or not as the error says
	tt, err := Encode("q", Q4, rows, cols, v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Write(nil, []Tensor{tt})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	got := f.Tensors["q"].Matrix()
	for i := range rows {
		for start := i * cols; start < (i+1)*cols; start += Q4Group {
			end := min(start+Q4Group, (i+1)*cols)
			var most, err2 float64
			for j := start; j < end; j++ {
				most = max(most, math.Abs(float64(v[j])))
				err2 += float64((got[j] - v[j]) * (got[j] - v[j]))
			}
			// NF4's widest gap is 0.3 of the scale, the largest magnitude at
			// most: an rms error past a tenth of it is no rounding.
			if rms := math.Sqrt(err2 / float64(end-start)); rms > 0.1*most {
				t.Errorf("row %d, group at %d: rms error %.3f, want <= %.3f", i, start-i*cols, rms, 0.1*most)
			}
		}
	}
	row := make([]float32, cols)
	f.Tensors["q"].Row(1, row)
	part := make([]float32, 10)
	f.Tensors["q"].Q4Range(1, 30, 40, part)
	for j := range part {
		if part[j] != row[30+j] || row[30+j] != got[cols+30+j] {
			t.Errorf("row 1 column %d: Q4Range %v, Row %v, Matrix %v", 30+j, part[j], row[30+j], got[cols+30+j])
		}
	}
	levels := Q4Levels()
	for i := range rows { // as stored, each value its level times its scale
		scales := make([]float32, q4Groups(cols))
		values := f.Tensors["q"].Q4Row(i, scales)
		if len(values) != cols/2 {
			t.Fatalf("Q4Row(%d): %d bytes of values, want %d", i, len(values), cols/2)
		}
		for j := range cols {
			lv := levels[values[j/2]>>(4*(j%2))&0xf] * scales[j/Q4Group]
			if lv != got[i*cols+j] {
				t.Errorf("row %d column %d: from Q4Row %v, Matrix %v", i, j, lv, got[i*cols+j])
			}
		}
	}
	if _, err := Encode("odd", Q4, 1, 3, []float32{1, 2, 3}); err == nil {
		t.Errorf("Encode(Q4, 1×3) succeeded, want an error: 4-bit values need an even number of columns")
	}
}

// BenchmarkDecode times decoding a 512×1536 matrix a chunk of 128 columns
// at a time, as package embed multiplies by it, stored as int8 and as Q4.
func BenchmarkDecode(b *testing.B) {
	const rows, cols, chunk = 512, 1536, 128
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(math.Sin(float64(i)))
	}
	dst := make([]float32, chunk)
	for _, kind := range []Kind{Q8Cols, Q4} {
		t, err := Encode("m", kind, rows, cols, v)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(map[Kind]string{Q8Cols: "q8", Q4: "q4"}[kind], func(b *testing.B) {
			scale := t.Scales()
			for b.Loop() {
				for j := 0; j < cols; j += chunk {
					for i := range rows {
						if kind == Q4 {
							t.Q4Range(i, j, j+chunk, dst)
						} else {
							t.Q8Range(i, j, j+chunk, scale, dst)
						}
					}
				}
			}
		})
	}
}

// TestQ4RangeEdges checks every range of columns of a [Q4] row, starting
// and ending in either half of a byte, within a group or across groups,
// decoded with the assembly (where it runs) and without, against each
// value decoded alone.
func TestQ4RangeEdges(t *testing.T) {
	const rows, cols = 2, 4*Q4Group + 6
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(math.Cos(float64(i))) * float32(1+i%5)
	}
	tt, err := Encode("q", Q4, rows, cols, v)
	if err != nil {
		t.Fatal(err)
	}
	groups := q4Groups(cols)
	for i := range rows {
		want := make([]float32, cols)
		for j := range want {
			g := j / Q4Group
			b := tt.data[2*rows*groups+i*cols/2+j/2]
			if j%2 == 1 {
				b >>= 4
			}
			s := bf16(tt.data[2*(i*groups+g)], tt.data[2*(i*groups+g)+1])
			want[j] = q4Levels[b&0xf] * s
		}
		for j0 := range cols {
			for j1 := j0 + 1; j1 <= cols; j1++ {
				for _, asm := range []bool{true, false} {
					got := make([]float32, j1-j0)
					tt.q4Range(i, j0, j1, got, asm)
					for j := range got {
						if got[j] != want[j0+j] {
							t.Fatalf("q4Range(%d, %d, %d, asm %v)[%d] = %v, want %v", i, j0, j1, asm, j, got[j], want[j0+j])
						}
					}
				}
			}
		}
	}
}

// TestQ8RangeEdges checks every range of columns of a [Q8Cols] row,
// decoded with the assembly (where it runs, 8 values at a time) and
// without, against each value decoded alone.
func TestQ8RangeEdges(t *testing.T) {
	const rows, cols = 2, 37
	v := make([]float32, rows*cols)
	for i := range v {
		v[i] = float32(math.Cos(float64(i))) * float32(1+i%5)
	}
	tt, err := Encode("q", Q8Cols, rows, cols, v)
	if err != nil {
		t.Fatal(err)
	}
	scale := tt.Scales()
	for i := range rows {
		values := tt.Q8Values(i)
		if len(values) != cols {
			t.Fatalf("Q8Values(%d): %d values, want %d", i, len(values), cols)
		}
		want := make([]float32, cols)
		for j := range want {
			want[j] = float32(int8(values[j])) * scale[j]
		}
		row := make([]float32, cols)
		tt.Row(i, row)
		if !slices.Equal(row, want) {
			t.Fatalf("row %d: Row %v, from Q8Values %v", i, row, want)
		}
		for j0 := range cols {
			for j1 := j0 + 1; j1 <= cols; j1++ {
				for _, asm := range []bool{true, false} {
					got := make([]float32, j1-j0)
					tt.q8Range(i, j0, j1, scale, got, asm)
					for j := range got {
						if got[j] != want[j0+j] {
							t.Fatalf("q8Range(%d, %d, %d, asm %v)[%d] = %v, want %v", i, j0, j1, asm, j, got[j], want[j0+j])
						}
					}
				}
			}
		}
	}
}
