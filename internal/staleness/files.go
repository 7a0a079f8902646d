package staleness

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// ErrOutside means an anchored path does not name a file inside the
// repository: its text leaves it (see [memory.ValidPath]) or a symlink on
// the way leads out. Such a file is never opened, so nothing a memory says
// can make mnemo read, hash or report on a file outside the repository.
var ErrOutside = errors.New("outside the repository")

var errNotRegular = errors.New("not a regular file")

// The functions below are the one way package staleness reaches a file a
// memory names: through [os.Root], which follows a symlink only while it
// stays inside the repository, after [memory.ValidPath] has refused a path
// whose text leaves it. A memory file arrives through git from anyone.

// openIn opens the regular file that the slash-separated path rel names
// inside root.
func openIn(root, rel string) (*os.File, fs.FileInfo, error) {
	if !memory.ValidPath(rel) {
		return nil, nil, ErrOutside
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	// Not blocking: opened to be read, a named pipe waits for a writer
	// (forever); opened so, it is found not to be a regular file below.
	f, err := r.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, outside(err)
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = errNotRegular
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// statIn returns what the slash-separated path rel names inside root: a
// file or a folder.
func statIn(root, rel string) (fs.FileInfo, error) {
	if !memory.ValidPath(rel) {
		return nil, ErrOutside
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Stat(filepath.FromSlash(rel))
	if err != nil {
		return nil, outside(err)
	}
	return fi, nil
}

// outside returns ErrOutside for an error [os.Root] gave because rel leads
// out of root, and err otherwise. os.Root does not export that error; it is
// the one it makes itself rather than take from the system (a
// [syscall.Errno]: no such file, permission denied, too many links).
func outside(err error) error {
	var errno syscall.Errno
	if errors.Is(err, fs.ErrNotExist) || errors.As(err, &errno) {
		return err
	}
	return ErrOutside
}

// hashIn returns the anchor hash of the file rel names inside root.
func hashIn(root, rel string) (string, error) { return hashAt(nil, root, rel) }

// maxHashed bounds the files hashed: an anchor, and every check of one
// (each recall's, each session start's), reads the whole file. Code is
// far smaller; what is larger is data (a dump, a disk image, a sparse
// file of a terabyte), which a memory is not written against line by
// line, and which would keep a hook past its deadline and a recall
// waiting. Such a file is not anchored, and an anchored file that grew
// past it is told as not checked ([TooLargeError]).
const maxHashed = 64 << 20

// A TooLargeError says a file is past the bound of what is hashed.
type TooLargeError struct{ Size int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("too large to check (%s, past %s)", sizeText(e.Size), sizeText(maxHashed))
}

// sizeText writes n bytes in the largest unit of 1,024 that it reaches:
// "64 MB", "1.5 GB".
func sizeText(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	v, unit := float64(n)/1024, 0
	for ; v >= 1024 && unit < 5; unit++ {
		v /= 1024
	}
	u := "KMGTPE"[unit:unit+1] + "B"
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), u)
	}
	return fmt.Sprintf("%.1f %s", v, u)
}

// hashOpen returns the anchor hash of the open file f at path p, whose
// stat is fi: from hs when it remembers the file at its size and stamp,
// else read, and then remembered in hs once the file has settled (see
// package filestamp). hs may be nil.
func hashOpen(hs Hashes, p string, f io.Reader, fi fs.FileInfo) (string, error) {
	if fi.Size() > maxHashed {
		return "", &TooLargeError{fi.Size()}
	}
	f = io.LimitReader(f, maxHashed) // a file that grew since its stat
	if hs == nil {
		return hash(f)
	}
	size, stamp := fi.Size(), filestamp.Of(fi)
	if sum, ok := hs.Hash(p, size, stamp); ok {
		return sum, nil
	}
	sum, err := hash(f)
	if err == nil && filestamp.Settled(fi, time.Now()) {
		hs.PutHash(p, size, stamp, sum)
	}
	return sum, err
}

// hash returns the first [memory.HashPrefixLen] hex digits of the SHA-256
// of what r holds.
func hash(r io.Reader) (string, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:memory.HashPrefixLen], nil
}

// unreadable says why an anchored or named file could not be checked. A
// path outside the repository is whatever the memory file says, and is
// quoted when it holds what a terminal or a reader should not take as
// text (control characters, line breaks).
func unreadable(p string, err error) string {
	if errors.As(err, new(*TooLargeError)) {
		return fmt.Sprintf("%s is %v", p, err)
	}
	if errors.Is(err, ErrOutside) {
		if strings.ContainsFunc(p, func(r rune) bool { return !unicode.IsGraphic(r) }) {
			p = strconv.Quote(p)
		}
		return fmt.Sprintf("%s is %v: not checked", p, ErrOutside)
	}
	return fmt.Sprintf("%s cannot be read: %v", p, pathless(err))
}

// pathless returns the error inside a [fs.PathError], for a message that
// names the path already, as the memory wrote it.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// maxCodeRead is how much of an anchored file [NamesInPlace] reads to look for
// identifiers; a larger file is searched no further.
const maxCodeRead = 1 << 20

// readIn reads up to maxCodeRead bytes of the file rel names inside root.
func readIn(root, rel string) ([]byte, error) {
	f, _, err := openIn(root, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxCodeRead))
}

// hashAt is [hashIn] through hs (see [hashOpen]).
func hashAt(hs Hashes, root, rel string) (string, error) {
	f, fi, err := openIn(root, rel)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashOpen(hs, rel, f, fi)
}
