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
