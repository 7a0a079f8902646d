package safefile

import (
	"encoding/json"
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
	return open(path, os.O_RDONLY, limit)
}

// OpenOwn is [Open] for a file that must be itself, not a symlink (mnemo's
// own record committed in the vault): a symlink is refused as not a
// regular file.
func OpenOwn(path string, limit int64) (*os.File, fs.FileInfo, error) {
	return open(path, os.O_RDONLY|noFollow, limit)
}

// Append opens the regular file at path for appending, creating it with
// perm when missing; a symlink, a FIFO or a device is refused, so that a
// record committed as a link never writes elsewhere. Each Write of the
// returned file appends at its end.
func Append(path string, perm fs.FileMode) (*os.File, error) {
	f, _, err := openMode(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|noFollow, perm, -1)
	return f, err
}

// AppendJSON appends v to the JSON-lines file at path as one line, in one
// write (so that appends by several processes never interleave), opened
// as [Append] opens it.
func AppendJSON(path string, v any, perm fs.FileMode) error {
	line, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := Append(path, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func open(path string, flag int, limit int64) (*os.File, fs.FileInfo, error) {
	return openMode(path, flag, 0, limit)
}

// openMode opens path without blocking and checks that it is a regular
// file of at most limit bytes (any size when limit is negative).
func openMode(path string, flag int, perm fs.FileMode, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		if flag&noFollow != 0 && isLink(path) {
			return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (a symlink)", ErrNotRegular)}
		}
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
	if limit >= 0 && fi.Size() > limit {
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

// isLink reports whether path names a symlink itself.
func isLink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
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
