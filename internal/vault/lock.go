package vault

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// LockPath is the writer lock of a vault whose state folder is stateDir,
// as every process that writes the vault must name it.
func LockPath(stateDir string) string { return filepath.Join(stateDir, "vault.lock") }

// lockRetry is how often a waiting writer tries the lock again.
const lockRetry = 5 * time.Millisecond

// Lock takes the vault's writer lock, waiting until ctx ends, and returns
// the function that releases it. The lock is an advisory file lock, so it
// serializes writers in every process; a mutex serializes this process's
// goroutines too, which file locks (and the race detector) cannot see.
// Taking the lock sweeps temp files that a crashed writer left.
func (v *Vault) Lock(ctx context.Context) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(v.lockPath), 0o755); err != nil {
		return nil, fmt.Errorf("vault: lock: %w", err)
	}
	v.mu.Lock()
	fl := flock.New(v.lockPath)
	ok, err := fl.TryLockContext(ctx, lockRetry)
	if err != nil || !ok {
		v.mu.Unlock()
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("vault: lock %s: %w", v.lockPath, err)
	}
	v.sweepLocked()
	return func() {
		fl.Unlock()
		v.mu.Unlock()
	}, nil
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
