//go:build !unix

package embed

// denseAlloc returns n values and a function that gives them back (see
// dense_unix.go): here, in the heap.
func denseAlloc[T float32 | uint16 | byte](n int) ([]T, func()) { return make([]T, n), func() {} }
