//go:build unix

package embed

import (
	"syscall"
	"unsafe"
)

// denseAlloc returns n values (float32, float16 bits, or bytes) outside
// Go's heap, in anonymous memory of their own, and a function that gives
// the memory back. The resident matrices hold no pointers and live as
// long as their model; counted in the heap, their 3 to 20 MB would raise
// the collector's goal by
// GOGC percent of it (80 MB more resident memory for the MCP server,
// which runs at 400). It falls back to the heap when the system refuses.
func denseAlloc[T float32 | uint16 | byte](n int) ([]T, func()) {
	var zero T
	b, err := syscall.Mmap(-1, 0, int(unsafe.Sizeof(zero))*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]T, n), func() {}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { syscall.Munmap(b) }
}
