//go:build !amd64

package index

// archKernels: this architecture has none of its own.
func archKernels() []kernel { return nil }
