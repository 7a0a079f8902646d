package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Conditions a caller may test for with [errors.Is].
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("too large")
)

// Open opens path for reading without blocking and returns it with its
// information when it is a regular file of at most limit bytes. The
// caller reads at most limit bytes of it ([Read] does) and closes it.
func Open(path string, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, typeOf(fi.Mode()))}
	}
	if fi.Size() > limit {
		f.Close()
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: tooLarge(fi.Size(), limit)}
	}
	return f, fi, nil
}

// Read returns the content of the regular file at path, refusing one of
// more than limit bytes (checked before and while reading: a file may grow).
func Read(path string, limit int64) ([]byte, error) {
	data, _, err := ReadInfo(path, limit)
	return data, err
}

// ReadInfo is [Read] that also returns the file's information, taken from
// the file read.
func ReadInfo(path string, limit int64) ([]byte, fs.FileInfo, error) {
	f, fi, err := Open(path, limit)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, nil, &fs.PathError{Op: "read", Path: path, Err: tooLarge(int64(len(data)), limit)}
	}
	return data, fi, nil
}

func tooLarge(size, limit int64) error {
	return fmt.Errorf("%w: %d bytes or more, at most %d", ErrTooLarge, size, limit)
}

func typeOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}
