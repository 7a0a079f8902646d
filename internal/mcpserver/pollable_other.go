//go:build !unix

package mcpserver

import "io"

// Pollable returns in as it is: only a Unix pipe is made pollable (see
// the Unix Pollable).
func Pollable(in io.Reader) (io.Reader, func()) { return in, func() {} }
