package memory

import (
	"errors"
	"fmt"
	"strings"
)

// A ParseError reports a problem in a memory file: its path, the 1-based line
// in the file (0 when the problem is the file as a whole) and the header key
// at fault (empty for structural problems).
type ParseError struct {
	Path  string
	Line  int
	Field string
	Err   error
}

func (e *ParseError) Error() string {
	var b strings.Builder
	if e.Path != "" {
		b.WriteString(e.Path)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Conditions a caller may test for with [errors.Is].
var (
	ErrNoHeader = errors.New("no header: a memory file starts with a '---' line")
	ErrTooLarge = fmt.Errorf("file is larger than %d KiB: a memory holds one fact", MaxFileSize>>10)
	ErrNotUTF8  = errors.New("not valid UTF-8")
	// ErrConflict: git left conflict markers in the file; it is not read as
	// a memory until a person resolves it.
	ErrConflict = errors.New("git merge conflict")
	ErrMissing  = errors.New("missing")
)

// Problems returns the individual errors joined in err (as [Memory.Validate]
// returns them), or err itself when it joins nothing.
func Problems(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// CheckSize reports, as a [*ParseError] on field, a memory text of size
// bytes that would make its file larger than [MaxFileSize]: the one limit
// readers and writers share. Writers call it before any costly work on a
// text too large to keep.
func CheckSize(file, field string, size int) error {
	if size <= MaxFileSize {
		return nil
	}
	return &ParseError{Path: file, Field: field, Err: fmt.Errorf("%w (this one would be %d KiB)", ErrTooLarge, size>>10)}
}
