package packfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

const magic = "mnemoUSE\x01\x00\x00\x00"

// A Kind says how a tensor's values are stored.
type Kind uint8

const (
	F32    Kind = iota // float32 values
	Q8Rows             // int8 values, one scale per row
	Q8Cols             // int8 values, one scale per column
	Q4                 // 4-bit values, one bfloat16 scale per Q4Group values of a row
)

// Q4Group is how many consecutive values of a row share a [Q4] scale.
const Q4Group = 32

// A Piece is a SentencePiece vocabulary entry; its id is its index.
type Piece struct {
	Text  string
	Score float64 // log probability; higher is likelier
}

// A Tensor is a rows×cols matrix in its stored form.
type Tensor struct {
	Name       string
	Kind       Kind
	Rows, Cols int
	data       string // the scales, then the values
}

// A File is a parsed pack file.
type File struct {
	Pieces  []Piece
	Tensors map[string]Tensor
}

// Parse reads a pack file without copying its contents.
func Parse(s string) (*File, error) {
	r := reader{s: s}
	if r.str(len(magic)) != magic {
		return nil, errors.New("packfile: not a pack file of this version")
	}
	np, nt := r.u32(), r.u32()
	if r.err != nil || np > uint32(len(s)) || nt > uint32(len(s)) {
		return nil, errors.New("packfile: truncated header")
	}
	f := &File{Pieces: make([]Piece, np), Tensors: make(map[string]Tensor, nt)}
	for i := range f.Pieces {
		score := math.Float64frombits(r.u64())
		f.Pieces[i] = Piece{Score: score, Text: r.str(int(r.u8()))}
	}
	for range nt {
		t := Tensor{Name: r.str(int(r.u8())), Kind: Kind(r.u8())}
		t.Rows, t.Cols = int(r.u32()), int(r.u32())
		off := int(r.u32())
		if r.err != nil {
			return nil, errors.New("packfile: truncated directory")
		}
		n, err := t.size()
		if err != nil {
			return nil, fmt.Errorf("packfile: tensor %s: %w", t.Name, err)
		}
		if off < 0 || off > len(s) || n > len(s)-off {
			return nil, fmt.Errorf("packfile: tensor %s: data past the end of the file", t.Name)
		}
		t.data = s[off : off+n]
		f.Tensors[t.Name] = t
	}
	return f, nil
}

// size returns the bytes t's data takes.
func (t Tensor) size() (int, error) {
	if t.Rows <= 0 || t.Cols <= 0 || t.Rows > 1<<20 || t.Cols > 1<<20 {
		return 0, fmt.Errorf("shape %d×%d", t.Rows, t.Cols)
	}
	n := t.Rows * t.Cols
	switch t.Kind {
	case F32:
		return 4 * n, nil
	case Q8Rows:
		return 4*t.Rows + n, nil
	case Q8Cols:
		return 4*t.Cols + n, nil
	case Q4:
		if t.Cols%2 != 0 {
			return 0, fmt.Errorf("4-bit values need an even number of columns, not %d", t.Cols)
		}
		return 2*t.Rows*q4Groups(t.Cols) + n/2, nil
	}
	return 0, fmt.Errorf("kind %d", t.Kind)
}

// Row decodes row i into dst, which must hold t.Cols values.
func (t Tensor) Row(i int, dst []float32) {
	dst = dst[:t.Cols]
	switch t.Kind {
	case F32:
		for j := range dst {
			dst[j] = f32(t.data, 4*(i*t.Cols+j))
		}
	case Q8Rows:
		s, v := f32(t.data, 4*i), t.data[4*t.Rows+i*t.Cols:]
		for j := range dst {
			dst[j] = float32(int8(v[j])) * s
		}
	case Q8Cols:
		t.Q8Row(i, t.Scales(), dst)
	case Q4:
		t.Q4Range(i, 0, t.Cols, dst)
	}
}

// q4Levels are the values a [Q4] nibble stands for, times its group's
// scale: the NF4 levels of QLoRA (Dettmers et al., 2023), quantiles of a
// normal distribution, which is what trained weights look like: they
// spend the 16 levels where the weights are, not evenly up to the largest.
var q4Levels = [16]float32{
	-1, -0.6961928, -0.52507305, -0.39491748, -0.28444138, -0.18477343, -0.091050036, 0,
	0.0795803, 0.1609302, 0.2461123, 0.33791524, 0.44070983, 0.562617, 0.72295684, 1,
}

// Q4Levels returns the 16 levels a [Q4] value's nibble indexes (see
// [Tensor.Q4Row]).
func Q4Levels() [16]float32 { return q4Levels }

// Q4Row returns row i of a [Q4] tensor as stored: its values, two to a
// byte (the first in the low nibble), each the index of its level in
// [Q4Levels]; and it stores in scales the scale of each of the row's
// groups of [Q4Group] values. A value is its level times its group's
// scale.
func (t Tensor) Q4Row(i int, scales []float32) (values string) {
	groups := q4Groups(t.Cols)
	s := t.data[2*i*groups : 2*(i+1)*groups]
	for g := range scales[:groups] {
		scales[g] = bf16(s[2*g], s[2*g+1])
	}
	v := t.data[2*t.Rows*groups:]
	return v[i*t.Cols/2 : (i+1)*t.Cols/2]
}

// q4Groups is how many scales a row of cols [Q4] values has.
func q4Groups(cols int) int { return (cols + Q4Group - 1) / Q4Group }

// Q4Range decodes columns j0 to j1 (excluded) of row i of a [Q4] tensor
// into dst. The scales come first, row by row; then the values, two to a
// byte (the first in the low nibble), each stored plus 8. A group's 16
// levels are scaled once, and a byte's two values are taken together.
func (t Tensor) Q4Range(i, j0, j1 int, dst []float32) {
	t.q4Range(i, j0, j1, dst, true)
}

// q4Range is [Tensor.Q4Range], decoding the whole groups of the range
// with assembly where it runs and asm is set.
func (t Tensor) q4Range(i, j0, j1 int, dst []float32, asm bool) {
	groups := q4Groups(t.Cols)
	scales := t.data[2*i*groups : 2*(i+1)*groups]
	v := t.data[2*t.Rows*groups+i*t.Cols/2:]
	dst = dst[:j1-j0]
	var lv [16]float32
	for j := j0; j < j1; {
		g := j / Q4Group
		if n := (j1 - j) / Q4Group; asm && j%Q4Group == 0 && n > 0 &&
			q4Whole(dst[j-j0:j-j0+n*Q4Group], v[j/2:], scales[2*g:]) {
			j += n * Q4Group
			continue
		}
		s := bf16(scales[2*g], scales[2*g+1])
		for l, q := range q4Levels {
			lv[l] = q * s
		}
		end := min(j1, (g+1)*Q4Group)
		if j%2 == 1 { // the high half of a byte
			dst[j-j0] = lv[v[j/2]>>4]
			j++
		}
		pairs := v[j/2 : j/2+(end-j)/2]
		out := dst[j-j0 : j-j0+2*len(pairs)]
		for p, b := range []byte(pairs) {
			out[2*p], out[2*p+1] = lv[b&0xf], lv[b>>4]
		}
		j += 2 * len(pairs)
		if j < end { // the low half of a byte
			dst[j-j0] = lv[v[j/2]&0xf]
			j++
		}
	}
}

// bf16 is the float32 whose high half is lo, hi (little-endian).
func bf16(lo, hi byte) float32 {
	return math.Float32frombits(uint32(lo)<<16 | uint32(hi)<<24)
}

// Matrix decodes every value, row by row.
func (t Tensor) Matrix() []float32 {
	m := make([]float32, t.Rows*t.Cols)
	if t.Kind != Q8Cols {
		for i := range t.Rows { // Q4 too: its scales are a row's
			t.Row(i, m[i*t.Cols:])
		}
		return m
	}
	scale := t.Scales()
	for i := range t.Rows {
		t.Q8Row(i, scale, m[i*t.Cols:(i+1)*t.Cols])
	}
	return m
}

// Scales returns the column scales of a [Q8Cols] tensor.
func (t Tensor) Scales() []float32 {
	scale := make([]float32, t.Cols)
	for j := range scale {
		scale[j] = f32(t.data, 4*j)
	}
	return scale
}

// Q8Row decodes row i of a [Q8Cols] tensor into dst, given its
// [Tensor.Scales]: the fast path of [Tensor.Row].
func (t Tensor) Q8Row(i int, scale, dst []float32) {
	t.Q8Range(i, 0, t.Cols, scale, dst)
}

// Q8Values returns row i of a [Q8Cols] tensor as stored: an int8 a
// value, which is that times its column's scale (see [Tensor.Scales]).
func (t Tensor) Q8Values(i int) string {
	n := t.Cols
	return t.data[4*n+i*n : 4*n+(i+1)*n]
}

// Q8Range decodes columns j0 to j1 (excluded) of row i of a [Q8Cols]
// tensor into dst, given its [Tensor.Scales].
func (t Tensor) Q8Range(i, j0, j1 int, scale, dst []float32) {
	t.q8Range(i, j0, j1, scale, dst, true)
}

// q8Range is [Tensor.Q8Range], with assembly where it runs and asm is set.
func (t Tensor) q8Range(i, j0, j1 int, scale, dst []float32, asm bool) {
	n := t.Cols
	v := t.data[4*n+i*n+j0 : 4*n+i*n+j1]
	scale, dst = scale[j0:j1], dst[:j1-j0]
	j := 0
	if asm {
		j = q8Whole(dst, v, scale)
	}
	for ; j < len(dst); j++ {
		dst[j] = float32(int8(v[j])) * scale[j]
	}
}

func f32(s string, off int) float32 {
	return math.Float32frombits(uint32(s[off]) | uint32(s[off+1])<<8 |
		uint32(s[off+2])<<16 | uint32(s[off+3])<<24)
}

// A reader reads little-endian values from a string, remembering the
// first read past its end.
type reader struct {
	s   string
	off int
	err error
}

func (r *reader) str(n int) string {
	if r.err != nil || n > len(r.s)-r.off {
		r.err = errors.New("truncated")
		return ""
	}
	v := r.s[r.off : r.off+n]
	r.off += n
	return v
}

func (r *reader) u8() uint8 {
	b := r.str(1)
	if b == "" {
		return 0
	}
	return b[0]
}

func (r *reader) u32() uint32 {
	b := r.str(4)
	if b == "" {
		return 0
	}
	return binary.LittleEndian.Uint32([]byte(b))
}

func (r *reader) u64() uint64 {
	b := r.str(8)
	if b == "" {
		return 0
	}
	return binary.LittleEndian.Uint64([]byte(b))
}
