package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// LockPath is the writer lock of a vault whose state folder is stateDir,
// as every process that writes the vault must name it.
func LockPath(stateDir string) string { return filepath.Join(stateDir, "vault.lock") }

// stateDir is the vault's state folder, where its lock file is: the list
// of mnemo's writes and the memories removed are kept there. It is empty
// for a vault opened without one (a mounted vault, read only).
func (v *Vault) stateDir() string {
	if v.lockPath == "" {
		return ""
	}
	return filepath.Dir(v.lockPath)
}

// lockRetry is how often a waiting writer tries the lock again.
const lockRetry = 5 * time.Millisecond

// Lock takes the vault's writer lock, waiting until ctx ends, and returns
// the function that releases it. The lock is an advisory lock on the vault
// folder itself where the system has one ([lockFolder]), else on the lock
// file in the state folder; so it serializes writers in every process,
// and a lock on the folder holds even when the state folder is deleted
// under a writer. A mutex serializes this process's goroutines too, which
// file locks (and the race detector) cannot see. Taking the lock sweeps
// temp files that a crashed writer left.
func (v *Vault) Lock(ctx context.Context) (unlock func(), err error) {
	v.mu.Lock()
	if v.lockPath != "" {
		// The state folder holds what a write records beside the lock
		// (the list of writes): a writer makes it, as the lock file did.
		_ = os.MkdirAll(filepath.Dir(v.lockPath), 0o755) // a failure shows in the record
	}
	release, err := lockFolder(ctx, v.Dir)
	if errors.Is(err, errNoFolderLock) {
		release, err = v.lockFile(ctx)
	}
	if err != nil {
		v.mu.Unlock()
		return nil, fmt.Errorf("vault: lock %s: %w", v.display, err)
	}
	v.sweepLocked()
	return func() {
		release()
		v.mu.Unlock()
	}, nil
}

// errNoFolderLock says the system or file system cannot lock a folder.
var errNoFolderLock = errors.New("cannot lock a folder here")

// lockFile takes the lock file in the state folder, made when missing
// (again when the folder is deleted while it waits).
func (v *Vault) lockFile(ctx context.Context) (unlock func(), err error) {
	for {
		if err := os.MkdirAll(filepath.Dir(v.lockPath), 0o755); err != nil {
			return nil, err
		}
		fl := flock.New(v.lockPath)
		ok, err := fl.TryLockContext(ctx, lockRetry)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !ok {
			if err == nil {
				err = ctx.Err()
			}
			return nil, err
		}
		return func() { fl.Unlock() }, nil
	}
}

// sweepLocked removes temp files left by writers that died mid-write. Every
// writer holds the lock, so none of them is in progress. v.mu must be held.
func (v *Vault) sweepLocked() {
	entries, err := os.ReadDir(v.Dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			os.Remove(filepath.Join(v.Dir, e.Name()))
		}
	}
}
