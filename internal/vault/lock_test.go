package vault

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLockSurvivesStateDeleted: a writer holds the vault's lock; the state
// folder (where the lock file was) is deleted; another process's writer
// must still wait for the first, and must not sweep its temp file.
func TestLockSurvivesStateDeleted(t *testing.T) {
	dir, state := t.TempDir(), filepath.Join(t.TempDir(), "state")
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	a, err := Open(dir, LockPath(state))
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := a.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	temp := filepath.Join(dir, ".live.md.123.tmp") // the holder's write in progress
	if err := os.WriteFile(temp, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir, LockPath(state)) // a Vault of its own: another lock, as in another process
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if unlockB, err := b.Lock(ctx); err == nil {
		unlockB()
		t.Errorf("a second writer took the lock while the first held it, the state folder deleted")
	}
	if _, err := os.Stat(temp); err != nil {
		t.Errorf("the holder's temp file was swept: %v", err)
	}
}
