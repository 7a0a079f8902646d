//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// chownLike gives f the owner and group of like when they differ from f's.
// Only root may give a file away; another process may still set a group it
// belongs to, and otherwise keeps the file its own, as any editor would.
func chownLike(f *os.File, like os.FileInfo) error {
	want, ok := like.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if have, ok := fi.Sys().(*syscall.Stat_t); ok && have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	err = f.Chown(int(want.Uid), int(want.Gid))
	if err != nil && os.Geteuid() != 0 && errors.Is(err, os.ErrPermission) {
		return nil // not ours to give away
	}
	return err
}
