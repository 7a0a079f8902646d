//go:build !amd64

package index

// dots is described in dot_amd64.go; here it is dotsGeneric alone.
func dots(codes []byte, scales, q, out []float32, dim int) {
	if dim <= 0 || len(q) < dim || len(scales) < len(out) || len(codes) < len(out)*dim {
		panic("index: dots: short arguments")
	}
	dotsGeneric(codes, scales, q, out, dim)
}
