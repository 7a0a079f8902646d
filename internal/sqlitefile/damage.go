package sqlitefile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// IsDamaged reports whether err says the file is not an SQLite database
// or is damaged beyond use (SQLITE_NOTADB, SQLITE_CORRUPT), or is shorter
// than what describes it says (SQLITE_IOERR_SHORT_READ: a WAL cut in the
// middle of a frame that the shared memory lists). A short read is not a
// failing disk, which fails again whatever is done, nor a file moved
// under a connection, which a new connection reads whole: the file at
// the path stays short, and every connection meets it until it is made
// anew.
func IsDamaged(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff
	return code == sqlite3.SQLITE_NOTADB || code == sqlite3.SQLITE_CORRUPT ||
		se.Code() == sqlite3.SQLITE_IOERR_SHORT_READ
}

// IsBusy reports whether err says SQLite refused a statement because
// another connection held a lock (SQLITE_BUSY, SQLITE_LOCKED, and their
// extended codes): one its busy handler could not wait out, as when
// waiting could deadlock, which the caller is to make again from the start
// of its transaction.
func IsBusy(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	code := se.Code() & 0xff
	return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
}

// IsIOError reports whether err is an SQLite I/O error (SQLITE_IOERR and
// its extended codes): what a connection meets when another process's
// repair removed the file it had open, its WAL and shared memory with it.
func IsIOError(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_IOERR
}

// IsMoved reports whether err says a write was refused because the
// database file was deleted or renamed after the connection opened it
// (SQLITE_READONLY_DBMOVED): the connection still reads the file it
// opened, but a connection opened now would find another, or none.
func IsMoved(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code() == sqlite3.SQLITE_READONLY_DBMOVED
}

// companions are the files SQLite keeps beside a database: they belong to
// it and go where it goes. The database itself comes last: once it is
// gone from its path, a process may make a new one there, with a WAL or a
// journal of its own, which must then be left alone.
var companions = []string{"-wal", "-shm", "-journal", ""}

// asideLayout names a set-aside file by the moment it was set aside, in
// UTC, so that two damages never share a name and the names sort by time.
const asideLayout = "20060102T150405.000Z"

// SetAside renames the damaged database at path, and the WAL, shared
// memory and journal files beside it, to path + ".damaged-<time>" (with
// their suffixes), where a person can inspect them; the database is gone
// from path, for its owner to create anew. It returns the new name of the
// database.
func SetAside(path string, now time.Time) (string, error) {
	aside := asideName(path, now)
	for _, suffix := range companions {
		err := os.Rename(path+suffix, aside+suffix)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("set aside damaged %s: %w", path, err)
		}
	}
	return aside, nil
}

// Remove deletes a database file and its WAL, shared-memory and
// rollback journal files.
// Like [SetAside], it removes the database itself last.
func Remove(path string) error {
	for _, suffix := range companions {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// asideName is where the database at path goes when set aside at now.
func asideName(path string, now time.Time) string {
	return path + ".damaged-" + strings.Replace(now.UTC().Format(asideLayout), ".", "", 1)
}

// SetAsideFor is [SetAside] for a database that others have open, which
// must never be missing from path: one that found it gone would make an
// empty one and read it while its schema is being made. The damaged file
// is linked to its aside name, with its WAL and journal, which belong to
// it, and with, a new database made whole beside it, is put in its place
// ([Replace]). It returns the aside name.
func SetAsideFor(path, with string, now time.Time) (string, error) {
	aside := asideName(path, now)
	for _, suffix := range companions {
		if suffix == "-shm" {
			continue // the shared memory is of the connections, not of the file
		}
		err := os.Link(path+suffix, aside+suffix)
		if err != nil && (suffix == "" || !errors.Is(err, os.ErrNotExist)) {
			return "", fmt.Errorf("set aside damaged %s: %w", path, err)
		}
	}
	if err := Replace(path, with); err != nil {
		return "", fmt.Errorf("set aside damaged %s: %w", path, err)
	}
	return aside, nil
}

// Replace puts the closed database at with (its WAL checkpointed into it)
// in place of the one at path. The WAL, shared-memory and journal files
// of path go first, so that no connection to the new file ever reads the
// old one's pages from them; the old database stays at path until the
// rename, so that path never holds no database, where a process would
// make an empty one. The folder is synced after.
func Replace(path, with string) error {
	for _, suffix := range companions[:len(companions)-1] {
		if err := os.Remove(path + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if err := os.Rename(with, path); err != nil {
		return err
	}
	return atomicfile.SyncDir(filepath.Dir(path))
}

// LockRepair takes the lock under which a damaged database at path is set
// aside or removed and made anew (path + ".lock"), waiting for another
// process's repair until ctx is done. Two processes that found the file
// damaged at once would otherwise each set it aside, the second the new
// one the first made, with what had been written to it since. Holding
// the lock, a process opens the file again before repairing it: the repair
// it waited for may have been the one it needed.
func LockRepair(ctx context.Context, path string) (unlock func(), err error) {
	fl := flock.New(lockName(path))
	ok, err := fl.TryLockContext(ctx, 10*time.Millisecond)
	if err != nil || !ok {
		if err == nil {
			err = ctx.Err()
		}
		return nil, fmt.Errorf("lock %s: %w", filepath.Base(lockName(path)), err)
	}
	return func() { fl.Unlock() }, nil
}

// lockName is the file [LockRepair] locks for the database at path.
func lockName(path string) string { return path + ".lock" }

// RemoveLock removes the file [LockRepair] locked for the temporary
// database at path, made beside another under that one's repair lock,
// which every process takes before it touches the temporary file: no
// other can hold or wait for its lock. The lock file of a database in
// use stays: removed while a process waits on it, the next process would
// lock a new file at the path, and two would hold the lock at once.
func RemoveLock(path string) error {
	if err := os.Remove(lockName(path)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// KeepWAL is a connection hook ([sqlite.Driver.RegisterConnectionHook])
// for a database in WAL mode that a repair may replace under open
// connections. It makes the WAL persistent (SQLITE_FCNTL_PERSIST_WAL):
// the last connection to close checkpoints it and truncates it through
// its own file handle (with a journal_size_limit set), rather than remove
// the files at the path's "-wal" and "-shm" names. SQLite skips its check
// that a connection's file is still the one at its path when that file
// holds no page (one truncated to nothing): such a connection, closed
// after a repair put a new file at the path, removed the new file's WAL,
// and with it what had been committed to it and not yet checkpointed.
func KeepWAL(c sqlite.ExecQuerierContext, _ string) error {
	fc, ok := c.(sqlite.FileControl)
	if !ok {
		return errors.New("keep the WAL: the connection has no file control")
	}
	if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
		return fmt.Errorf("keep the WAL: %w", err)
	}
	return nil
}
