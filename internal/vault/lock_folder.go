//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// lockFolder takes an exclusive flock(2) on the folder dir, waiting until
// ctx ends. The lock belongs to the open folder, so it lasts as long as
// the vault does, wherever the state folder goes. A file system that
// cannot lock a folder gives [errNoFolderLock].
func lockFolder(ctx context.Context, dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				syscall.Flock(fd, syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return nil, fmt.Errorf("%w: %w", errNoFolderLock, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockRetry):
		}
	}
}
