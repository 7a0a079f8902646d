package packfile

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Encode stores a rows×cols matrix of float32 values as kind, quantizing
// for [Q8Rows] and [Q8Cols] (symmetric: the largest magnitude of each row
// or column maps to 127).
func Encode(name string, kind Kind, rows, cols int, v []float32) (Tensor, error) {
	t := Tensor{Name: name, Kind: kind, Rows: rows, Cols: cols}
	if len(v) != rows*cols {
		return t, fmt.Errorf("packfile: tensor %s: %d values for %d×%d", name, len(v), rows, cols)
	}
	var b []byte
	switch kind {
	case F32:
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
	case Q8Rows, Q8Cols:
		b = quantize(kind, rows, cols, v)
	case Q4:
		if cols%2 != 0 {
			return t, fmt.Errorf("packfile: tensor %s: 4-bit values need an even number of columns, not %d", name, cols)
		}
		b = quantize4(rows, cols, v)
	default:
		return t, fmt.Errorf("packfile: tensor %s: kind %d", name, kind)
	}
	t.data = string(b)
	return t, nil
}

func quantize(kind Kind, rows, cols int, v []float32) []byte {
	group := func(i, j int) int { return i } // which scale value (i, j) uses
	n := rows
	if kind == Q8Cols {
		group, n = func(i, j int) int { return j }, cols
	}
	scale := make([]float32, n)
	for i := range rows {
		for j := range cols {
			g := group(i, j)
			scale[g] = max(scale[g], float32(math.Abs(float64(v[i*cols+j]))))
		}
	}
	var b []byte
	for g, m := range scale {
		scale[g] = m / 127
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(scale[g]))
	}
	for i := range rows {
		for j := range cols {
			s := scale[group(i, j)]
			var q float64
			if s > 0 {
				q = math.Round(float64(v[i*cols+j]) / float64(s))
			}
			b = append(b, byte(int8(max(-127, min(127, q)))))
		}
	}
	return b
}

// quantize4 stores v as [Q4]: each group's scale is its largest
// magnitude, rounded to bfloat16, and each value the nearest level.
func quantize4(rows, cols int, v []float32) []byte {
	groups := q4Groups(cols)
	scale := make([]float32, rows*groups)
	var b []byte
	for i := range rows {
		for g := range groups {
			bits := groupScale(v[i*cols+g*Q4Group : i*cols+min(cols, (g+1)*Q4Group)])
			s := math.Float32frombits(uint32(bits) << 16)
			scale[i*groups+g] = s
			b = append(b, byte(bits), byte(bits>>8))
		}
	}
	values := make([]byte, rows*cols/2)
	for i := range rows {
		for j := range cols {
			s := scale[i*groups+j/Q4Group]
			n := nearestLevel(v[i*cols+j], s)
			k := (i*cols + j) / 2
			if j%2 == 1 {
				n <<= 4
			}
			values[k] |= n
		}
	}
	return append(b, values...)
}

// groupScale returns the bfloat16 scale (the high half of a float32)
// that quantizes group with the least squared error: the largest
// magnitude, or a fraction of it that clips the rare outlier to spend
// the levels on the rest.
func groupScale(group []float32) uint16 {
	var most float32
	for _, x := range group {
		most = max(most, abs32(x))
	}
	best, bestErr := uint16(0), float32(math.Inf(1))
	for c := float32(1); c >= 0.5; c -= 0.025 {
		bits := math.Float32bits(most * c)
		bits += 0x7fff + (bits>>16)&1 // round to nearest even in the high half
		s := math.Float32frombits(bits &^ 0xffff)
		var e float32
		for _, x := range group {
			d := q4Levels[nearestLevel(x, s)]*s - x
			e += d * d
		}
		if e < bestErr {
			best, bestErr = uint16(bits>>16), e
		}
	}
	return best
}

// nearestLevel returns the nibble whose level times s is nearest x.
func nearestLevel(x, s float32) byte {
	var best byte
	for k, l := range q4Levels {
		if abs32(l*s-x) < abs32(q4Levels[best]*s-x) {
			best = byte(k)
		}
	}
	return best
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

// Write returns the pack file holding pieces and tensors.
func Write(pieces []Piece, tensors []Tensor) ([]byte, error) {
	b := []byte(magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(pieces)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(tensors)))
	for _, p := range pieces {
		if len(p.Text) > math.MaxUint8 {
			return nil, fmt.Errorf("packfile: piece %q is longer than 255 bytes", p.Text)
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Score))
		b = append(b, byte(len(p.Text)))
		b = append(b, p.Text...)
	}
	off := len(b)
	for _, t := range tensors {
		off += 1 + len(t.Name) + 1 + 3*4
	}
	for _, t := range tensors {
		if len(t.Name) > math.MaxUint8 {
			return nil, fmt.Errorf("packfile: tensor name %q is longer than 255 bytes", t.Name)
		}
		b = append(b, byte(len(t.Name)))
		b = append(b, t.Name...)
		b = append(b, byte(t.Kind))
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Rows))
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Cols))
		b = binary.LittleEndian.AppendUint32(b, uint32(off))
		off += len(t.data)
	}
	for _, t := range tensors {
		b = append(b, t.data...)
	}
	return b, nil
}
