package embed

import (
	"math"
	"testing"
)

// TestToHalf checks the rounding to float16 against known bit patterns:
// zeros, the least subnormal and the largest, the least normal, the
// largest finite value, ties (which go to the even neighbour), overflow,
// underflow, infinities and NaN.
func TestToHalf(t *testing.T) {
	nan := math.Float32frombits(0x7fc00000)
	cases := []struct {
		name string
		f    float32
		want uint16
	}{
		{"zero", 0, 0x0000},
		{"minus zero", float32(math.Copysign(0, -1)), 0x8000},
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"a third", 1.0 / 3, 0x3555},
		{"least subnormal", 0x1p-24, 0x0001},
		{"largest subnormal", 1023 * 0x1p-24, 0x03ff},
		{"least normal", 0x1p-14, 0x0400},
		{"largest", 65504, 0x7bff},
		{"tie below the least subnormal, to zero", 0x1p-25, 0x0000},
		{"above the tie below the least subnormal", 0x1.000002p-25, 0x0001},
		{"below half the least subnormal", 0x1p-26, 0x0000},
		{"minus below half the least subnormal", -0x1p-26, 0x8000},
		{"subnormal tie, to even 2", 3 * 0x1p-25, 0x0002},
		{"subnormal tie, to even 4", 7 * 0x1p-25, 0x0004},
		{"tie up into the least normal", 0x1p-14 - 0x1p-25, 0x0400},
		{"tie after one, to even one", 1 + 0x1p-11, 0x3c00},
		{"tie after 1+2^-10, to even 1+2^-9", 1 + 3*0x1p-11, 0x3c02},
		{"just above a tie", 1 + 0x1p-11 + 0x1p-23, 0x3c01},
		{"just below a tie up", 1 + 3*0x1p-11 - 0x1p-23, 0x3c01},
		{"carry into the exponent", 2 - 0x1p-12, 0x4000},
		{"below the tie with infinity", 65519, 0x7bff},
		{"tie with infinity, to infinity", 65520, 0x7c00},
		{"overflow", 1e10, 0x7c00},
		{"minus overflow", -1e10, 0xfc00},
		{"infinity", float32(math.Inf(1)), 0x7c00},
		{"minus infinity", float32(math.Inf(-1)), 0xfc00},
		{"NaN", nan, 0x7e00},
		{"NaN with a payload, quietened", math.Float32frombits(0x7f802000), 0x7e01},
		{"minus NaN", -nan, 0xfe00},
	}
	for _, c := range cases {
		if got := toHalf(c.f); got != c.want {
			t.Errorf("%s: toHalf(%g) = %#04x, want %#04x", c.name, c.f, got, c.want)
		}
	}
}

// TestHalfEvery checks every float16 value: fromHalf gives it exactly
// (as float64 arithmetic computes it), toHalf gives it back, and the
// float32 values between it and the next one round to the nearer, a tie
// to the even one; then that every kernel's [kernel.toHalves] rounds all
// of those, and [TestToHalf]'s, as toHalf does.
func TestHalfEvery(t *testing.T) {
	var seen []float32
	defer func() { testToHalves(t, seen) }()
	for h := range uint16(0x7c00) { // every finite positive value
		want := math.Ldexp(float64(h&0x3ff|0x400), int(h>>10)-25)
		if h < 0x400 {
			want = math.Ldexp(float64(h), -24)
		}
		for _, sign := range []uint16{0, 0x8000} {
			f, w := fromHalf(h|sign), want
			if sign != 0 {
				w = -w
			}
			if float64(f) != w || math.Signbit(float64(f)) != (sign != 0) {
				t.Fatalf("fromHalf(%#04x) = %g, want %g", h|sign, f, w)
			}
			seen = append(seen, f)
			if got := toHalf(f); got != h|sign {
				t.Fatalf("toHalf(fromHalf(%#04x)) = %#04x", h|sign, got)
			}
		}
		if h == 0x7bff {
			break
		}
		lo, hi := fromHalf(h), fromHalf(h+1)
		mid := (lo + hi) / 2 // exact: float32 has 13 more bits
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, c := range []struct {
			f    float32
			want uint16
		}{
			{math.Nextafter32(mid, lo), h},
			{mid, even},
			{math.Nextafter32(mid, hi), h + 1},
		} {
			seen = append(seen, c.f, -c.f)
			if got := toHalf(c.f); got != c.want {
				t.Fatalf("toHalf(%g), between %#04x and %#04x, = %#04x, want %#04x", c.f, h, h+1, got, c.want)
			}
		}
	}
	for _, h := range []uint16{0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe3f} {
		f := fromHalf(h)
		if inf := h&0x3ff == 0; math.IsInf(float64(f), 0) != inf || math.IsNaN(float64(f)) == inf {
			t.Errorf("fromHalf(%#04x) = %g", h, f)
		}
	}
}

func testToHalves(t *testing.T, fs []float32) {
	fs = append(fs, 1e-10, -1e10, 65520, float32(math.Inf(-1)), math.Float32frombits(0x7fc00000), math.Float32frombits(0xff802000))
	fs = append(fs, 1, 2, 3) // a tail past the last 8
	for _, kn := range kernels() {
		got := make([]uint16, len(fs))
		kn.toHalves(got, fs)
		for i, f := range fs {
			if want := toHalf(f); got[i] != want {
				t.Errorf("%v: toHalves of %g (%#08x) gave %#04x, want %#04x", kn, f, math.Float32bits(f), got[i], want)
			}
		}
	}
}
