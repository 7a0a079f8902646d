//go:build unix

package embed

import (
	"syscall"
	"unsafe"
)

// denseAlloc returns n float32 values outside Go's heap, in anonymous
// memory of their own, and a function that gives the memory back. The
// decoded matrices hold no pointers and live as long as their model;
// counted in the heap, their 20 MB would raise the collector's goal by
// GOGC percent of it (80 MB more resident memory for the MCP server,
// which runs at 400). It falls back to the heap when the system refuses.
func denseAlloc(n int) ([]float32, func()) {
	b, err := syscall.Mmap(-1, 0, 4*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]float32, n), func() {}
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), n), func() { syscall.Munmap(b) }
}
