package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// healed reports whether err says index.db (or history.db) is damaged
// below its schema, where [Open] does not look (a page of a table that
// only a search, a sync or a write reads), and if so repairs it, so that
// the statement that failed can be tried again ([sqlitefile.Retried],
// which every exported method that touches the files runs through):
//
//   - under [sqlitefile.LockRepair], where the processes that met the
//     same damage wait for the one that repairs it (a hook, the worker
//     and the MCP server use one index.db);
//   - holding it, the files now at the paths are checked (PRAGMA
//     quick_check): another process may have repaired them already; a
//     damaged index.db is rebuilt from the sources of the last sync
//     ([DB.replace]: never half filled at its path), a damaged history.db
//     set aside;
//   - the idle connections are closed, so that the next statement opens
//     the files now at the paths ([ensureSchemas] gives a new one its
//     schema), and the cached lengths and vectors are dropped.
//
// An I/O error is healed the same way: it is what a connection meets when
// another process's repair removed the file it had open (its WAL and
// shared memory gone with it); once that repair is done, the file at the
// path is whole, and only the connections are made again. A disk that
// fails fails again, and its error stands. So is a write refused because
// a file was deleted under its connection ([DB.moved]): the connections
// are made again, to the files now at the paths.
//
// A repair that fails is logged, and err stands.
func (db *DB) healed(ctx context.Context, err error) bool {
	if db.moved(err) {
		return true
	}
	if !sqlitefile.IsDamaged(err) && !sqlitefile.IsIOError(err) || ctx.Err() != nil {
		return false
	}
	unlock, lerr := sqlitefile.LockRepair(ctx, db.path)
	if lerr != nil {
		db.log.Warn("index.db is damaged: repair it", "path", db.path, "err", err, "lock", lerr)
		return false
	}
	defer unlock()
	if herr := db.heal(ctx, err); herr != nil {
		db.log.Warn("index.db is damaged: repair it", "path", db.path, "err", err, "repair", herr)
		return false
	}
	return true
}

// heal checks both files and rebuilds what is damaged; the caller holds
// the repair lock.
func (db *DB) heal(ctx context.Context, cause error) error {
	main, history, err := checkFiles(ctx, db.path, db.history)
	if err != nil {
		return err
	}
	if !history {
		if err := db.newHistory(ctx, "is damaged", cause); err != nil {
			return err
		}
	}
	if !main {
		db.log.Warn("index.db is damaged: rebuilt", "path", db.path, "err", cause)
		if err := db.replace(ctx); err != nil {
			return err
		}
	}
	db.reconnect()
	if srcs := db.mirrored(); main && len(srcs) > 0 {
		// Another process put a new index in place, perhaps an empty one
		// (repaired as it opened): what this one synced was the old.
		_, err = db.syncRaced(ctx, srcs)
	}
	return err
}

// newHistory sets the damaged history.db aside (saying it has the problem
// named) and puts in its place a new
// one, made with its schema beside it: every process has it attached, and
// one that found none at the path would make an empty one and read it
// before its tables are made ("no such table"). The caller holds the
// repair lock.
func (db *DB) newHistory(ctx context.Context, problem string, cause error) error {
	tmp := db.history + ".new"
	if err := sqlitefile.Remove(tmp); err != nil {
		return fmt.Errorf("remove %s: %w", tmp, err)
	}
	if err := applyHistory(ctx, tmp); err != nil {
		sqlitefile.Remove(tmp)
		return &historyError{err}
	}
	aside, err := sqlitefile.SetAsideFor(db.history, tmp, time.Now())
	sqlitefile.Remove(tmp) // what is left of it: its journal
	if err != nil {
		return err
	}
	db.log.Warn("history.db "+problem+": set aside, and the history (recall statistics, injection records, verdicts) starts empty",
		"path", db.history, "aside", aside, "err", cause)
	return nil
}

// replace puts a new index in place of the damaged one at db.path: built
// beside it, from the sources of the last sync when they are known (else
// empty: the next sync fills it), and then renamed over it, so that the
// path holds either the damaged file or a new one with its schema, never
// none, where a process would make an empty one and read it before its
// tables are made ("no such table"), nor one half filled, which it would
// search as if whole. The caller holds the repair lock.
func (db *DB) replace(ctx context.Context) error {
	srcs := db.mirrored()
	tmp := db.path + ".rebuild"
	if err := sqlitefile.Remove(tmp); err != nil {
		return fmt.Errorf("remove %s: %w", tmp, err)
	}
	nb, err := Open(ctx, tmp, db.log)
	// Open made it under its own repair lock, which no other process
	// takes: they take db.path's first, which the caller holds.
	sqlitefile.RemoveLock(tmp)
	if err != nil {
		return err
	}
	if len(srcs) > 0 {
		_, err = nb.Sync(ctx, srcs...)
	}
	// Closed, its WAL is checkpointed into the file and removed: the file
	// is whole on its own.
	if err := errors.Join(err, nb.Close()); err != nil {
		sqlitefile.Remove(tmp)
		return fmt.Errorf("rebuild: %w", err)
	}
	err = sqlitefile.Replace(db.path, tmp)
	sqlitefile.Remove(tmp) // what is left of it, if anything
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	return nil
}

// ErrDamaged says that index.db is damaged: [DB.Check] found it so.
var ErrDamaged = errors.New("damaged (PRAGMA quick_check)")

// Check reports whether index.db at its path is whole, reading every page
// (PRAGMA quick_check: 63-102 ms here for 10,000 memories without vectors,
// a 12.5 MB file), as doctor asks: a damage below the schema is
// otherwise found only when a statement reads it, which then repairs it.
func (db *DB) Check(ctx context.Context) error {
	ok, err := checkFile(ctx, db.path)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if !ok {
		return fmt.Errorf("index: %s: %w", db.path, ErrDamaged)
	}
	return nil
}

// checkFiles reports whether the index and the history at their paths are
// whole (the history checked only when the index is), from a connection of its own (not one of a DB's, which may hold
// a file that is no longer at its path). A missing file is whole: it is
// made anew.
func checkFiles(ctx context.Context, index, history string) (indexOK, historyOK bool, err error) {
	indexOK, err = checkFile(ctx, index)
	if err != nil || !indexOK {
		// The damage met was that one: the history is read only when the
		// index is whole, for it is in use by every other process.
		return indexOK, true, err
	}
	historyOK, err = checkFile(ctx, history)
	return indexOK, historyOK, err
}

func checkFile(ctx context.Context, path string) (bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	s, err := sql.Open("sqlite", sqlitefile.URI(path, "")+"?mode=rw&_pragma=busy_timeout("+fmt.Sprint(DefaultBusyTimeout.Milliseconds())+")")
	if err != nil {
		return false, err
	}
	defer s.Close()
	var res string
	switch err := s.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&res); {
	case sqlitefile.IsDamaged(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("check %s: %w", path, err)
	}
	return res == "ok", nil
}

// reconnect closes the idle connections, so that the next statement opens
// the files now at the paths, and drops what was cached of the old ones.
// A connection in use keeps its file until it is done; if that one is
// damaged, the next statement on it heals again, and finds the file whole.
func (db *DB) reconnect() {
	db.sql.SetMaxIdleConns(0)
	db.sql.SetMaxIdleConns(idleConns)
	db.vmu.Lock()
	db.vstate = nil
	db.vmu.Unlock()
	db.words.drop()
	db.dropResident()
}

// mirrors records the sources the index mirrors, for [DB.healed].
func (db *DB) mirrors(sources []Source) {
	db.smu.Lock()
	db.synced = sources
	db.smu.Unlock()
}

// mirrored returns the sources of the last sync.
func (db *DB) mirrored() []Source {
	db.smu.Lock()
	defer db.smu.Unlock()
	return db.synced
}
