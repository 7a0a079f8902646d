package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
)

// IOStreams are a command's standard streams. stdout carries the answer;
// progress, warnings and errors go to ErrOut.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// InTTY reports whether In is a terminal (an editor can take it over);
	// ErrTTY whether ErrOut is one (progress is drawn there).
	InTTY, ErrTTY bool
}

// Stdio returns the process's streams.
func Stdio() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, InTTY: isTerminal(os.Stdin), ErrTTY: isTerminal(os.Stderr)}
}

// TestIO returns streams backed by buffers, reading in from stdin.
func TestIO(stdin string) (io *IOStreams, out, errOut *bytes.Buffer) {
	out, errOut = new(bytes.Buffer), new(bytes.Buffer)
	return &IOStreams{In: strings.NewReader(stdin), Out: out, ErrOut: errOut}, out, errOut
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
