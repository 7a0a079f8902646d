package index

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// SchemaVersion is stored in PRAGMA user_version. An index.db with another
// version was written by another build of mnemo and is rebuilt, unless
// [upgrades] brings it to this one in place. Version 12 moved the history
// to history.db, 13 left out the rows of memories that fail validation, 14
// added the vectors, 15 their mean, 16 the model they are of.
const SchemaVersion = 16

// upgrades bring an index.db of the version each is keyed by to
// [SchemaVersion] in place, where rebuilding it all would be wasted work.
// Version 15's vectors name no model, and may be of the weights of an
// older build: they are dropped, and the worker embeds every memory again
// (minutes at 10,000 memories, in batches no hook waits for); the rest,
// which the model does not touch, is kept.
var upgrades = map[int]string{
	15: `ALTER TABLE vector_gen ADD COLUMN model TEXT NOT NULL DEFAULT '';
		DELETE FROM vectors;
		DELETE FROM vector_mean;
		UPDATE vector_gen SET gen = gen + 1, model = '';`,
}

// FileName is the index's file in a state folder.
const FileName = "index.db"

// DefaultBusyTimeout is how long a statement waits for another process's
// write lock before failing.
const DefaultBusyTimeout = 5 * time.Second

//go:embed schema.sql
var schema string

// A DB is an open index.db, with the history.db beside it attached to
// every connection as the schema "history".
type DB struct {
	sql     *sql.DB
	path    string
	history string // the path of history.db
	log     *slog.Logger

	mu    sync.Mutex // guards following
	stmts map[string]*sql.Stmt

	vmu    sync.Mutex   // guards following, and the set of each vectorState
	vstate *vectorState // what the vectors were when last read (see Vectors)

	words   wordCache   // what word searches read, kept by generation
	scratch scratchPool // word searches' working memory
	res     resident    // every row, when the process keeps them (see KeepResident)

	smu    sync.Mutex // guards following
	synced []Source   // of the last sync: what a repair fills the new index from (see healed)
}

// stmt returns the statement for query, prepared on first use: the search
// queries run on every prompt, and preparing them costs as much as a
// small search.
func (db *DB) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if s := db.stmts[query]; s != nil {
		return s, nil
	}
	s, err := db.sql.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if db.stmts == nil {
		db.stmts = make(map[string]*sql.Stmt)
	}
	db.stmts[query] = s
	return s, nil
}

// Open opens the index at path and the history beside it ([HistoryFileName]),
// creating them and their folder when missing. An index.db that is not a
// database, or whose schema version is not [SchemaVersion], is rebuilt
// empty, and the next [DB.Sync] fills it again; the history is kept (and
// moved out of an index.db that held it). A history.db that is not a
// database is set aside and started anew. Each is logged as a warning on
// log (which may be nil).
func Open(ctx context.Context, path string, log *slog.Logger) (*DB, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	db := &DB{path: path, history: filepath.Join(filepath.Dir(path), HistoryFileName), log: log}
	err := db.create(ctx)
	if err == nil {
		err = db.open(ctx)
	}
	if err != nil && ctx.Err() == nil {
		// Damaged, or another process is repairing it under us (the
		// files removed or moved as this one opened them: an I/O error,
		// a locking protocol error): again, where a repair has finished.
		err = db.repair(ctx)
	}
	if err != nil {
		return nil, fmt.Errorf("index: open %s: %w", path, err)
	}
	return db, nil
}

// repair opens the index again under [sqlitefile.LockRepair], where
// another process's repair has finished, and recovers each file that is
// still not a database. The hooks of a session start and the worker open
// the index at the same moment: each setting history.db aside would set
// aside the new one another made, with what was recorded in it since.
func (db *DB) repair(ctx context.Context) error {
	unlock, err := sqlitefile.LockRepair(ctx, db.path)
	if err != nil {
		return err
	}
	defer unlock()
	err = db.open(ctx)
	for range 2 { // each file may be damaged
		if !isNotDatabase(err) {
			break
		}
		if err = db.recover(ctx, err); err == nil {
			err = db.open(ctx)
		}
	}
	return err
}

// recover deletes the index, or sets the history aside (kept for
// inspection, named by the time, a new one put in its place:
// [DB.newHistory]), whichever err says is not a database.
func (db *DB) recover(ctx context.Context, err error) error {
	if errors.As(err, new(*historyError)) {
		return db.newHistory(ctx, "is not a database", err)
	}
	db.log.Warn("index.db is not a database: deleted and rebuilt", "path", db.path, "err", err)
	return db.replace(ctx) // empty: Open knows no sources; the caller's sync fills it
}

// open connects, checks journal_mode and brings both schemas to this version.
// The page cache may grow to 128 MiB: a cold build of 100,000 memories
// with SQLite's default 2 MiB spent most of its time spilling pages to the
// WAL and reading them back. Temporary data stays in memory. Pages are read
// through a memory map rather than one read call each, which saved a hook's
// recall in a new process ~1.5 of its 10 ms here, where system calls are slow.
func (db *DB) open(ctx context.Context) error {
	s := sql.OpenDB(newConnector(db.path, db.history))
	var mode string
	if err := s.QueryRowContext(ctx, "PRAGMA main.journal_mode").Scan(&mode); err != nil {
		s.Close()
		return err
	}
	if mode != "wal" {
		s.Close()
		return fmt.Errorf("journal_mode is %q, want wal", mode)
	}
	db.sql = s
	if err := db.migrateHistory(ctx); err != nil {
		s.Close()
		db.sql = nil
		return &historyError{err}
	}
	if err := db.migrate(ctx); err != nil {
		s.Close()
		db.sql = nil
		return err
	}
	return nil
}

// dsn is the data source name of the index at path.
func dsn(path string) string {
	return sqlitefile.URI(path, "") + "?_pragma=busy_timeout(" + fmt.Sprint(DefaultBusyTimeout.Milliseconds()) + ")" +
		"&_pragma=journal_mode(wal)&_pragma=synchronous(normal)&_pragma=foreign_keys(1)" +
		"&_pragma=cache_size(-131072)&_pragma=temp_store(memory)&_pragma=mmap_size(1073741824)&_txlock=immediate"
}

// migrate creates the schema in an empty file, and drops and recreates it
// when the file holds another version that no [upgrades] entry brings up
// to this one, after moving out the history an older one held. It runs in
// one write transaction, so two processes opening a stale file rebuild it
// once.
func (db *DB) migrate(ctx context.Context) error {
	var v int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA main.user_version").Scan(&v); err != nil {
		return err
	}
	if v == SchemaVersion {
		return nil
	}
	if err := db.moveHistory(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, "PRAGMA main.user_version").Scan(&v); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if v == SchemaVersion {
		return nil // another process got there first
	}
	if up, ok := upgrades[v]; ok {
		_, err := tx.ExecContext(ctx, up+fmt.Sprintf("PRAGMA main.user_version = %d", SchemaVersion))
		if err == nil {
			db.log.Info("index.db upgraded in place", "path", db.path, "version", v, "want", SchemaVersion)
			return tx.Commit()
		}
		// Not the file its version says: rebuilt, as any other.
		db.log.Warn("index.db could not be upgraded in place", "path", db.path, "version", v, "err", err)
	}
	n, err := recreate(ctx, tx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if n > 0 || v != 0 {
		db.log.Warn("index.db has another schema version: rebuilt", "path", db.path,
			"version", v, "want", SchemaVersion)
	}
	return tx.Commit()
}

// recreate drops everything index.db holds (not the history) and creates
// this version's schema, empty, in tx. It returns how many objects it
// dropped.
func recreate(ctx context.Context, tx *sql.Tx) (int, error) {
	n, err := dropAll(ctx, tx)
	if err != nil {
		return n, err
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return n, fmt.Errorf("create schema: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA main.user_version = %d", SchemaVersion)); err != nil {
		return n, fmt.Errorf("set version: %w", err)
	}
	return n, nil
}

// dropAll drops every table, view and trigger of index.db (not of the
// history), and returns how many objects it dropped. Virtual tables go
// first: they drop their own shadow tables.
func dropAll(ctx context.Context, tx *sql.Tx) (int, error) {
	n := 0
	for _, query := range []string{
		"SELECT type, name FROM main.sqlite_schema WHERE type IN ('trigger', 'view')",
		"SELECT type, name FROM main.sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'",
		"SELECT type, name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
	} {
		objs, err := listObjects(ctx, tx, query)
		if err != nil {
			return n, err
		}
		for _, o := range objs {
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("DROP %s IF EXISTS main.%q", o[0], o[1])); err != nil {
				return n, fmt.Errorf("drop %s: %w", o[1], err)
			}
			n++
		}
	}
	return n, nil
}

func listObjects(ctx context.Context, tx *sql.Tx, query string) ([][2]string, error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var o [2]string
		if err := rows.Scan(&o[0], &o[1]); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// isNotDatabase reports whether err says the file is not an SQLite
// database or is damaged beyond use.
func isNotDatabase(err error) bool { return sqlitefile.IsDamaged(err) }

// Path returns the file the index lives in.
func (db *DB) Path() string { return db.path }

// HistoryPath returns the file the history lives in.
func (db *DB) HistoryPath() string { return db.history }

// Close closes the database.
func (db *DB) Close() error {
	db.mu.Lock()
	for _, s := range db.stmts {
		s.Close()
	}
	db.stmts = nil
	db.mu.Unlock()
	if err := db.sql.Close(); err != nil {
		return fmt.Errorf("index: close: %w", err)
	}
	return nil
}

// create makes index.db where there is none, under [sqlitefile.LockRepair]:
// whole beside it (in WAL mode, with its schema, the history attached
// and made) and renamed into place. Processes that made a new file at
// the path at once each switched it to WAL mode, which SQLite refuses
// with SQLITE_BUSY, busy timeout or not, to all but one of the
// connections that read the file first (TestFreshStateRaceProcesses).
func (db *DB) create(ctx context.Context) error {
	if _, err := os.Stat(db.path); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	unlock, err := sqlitefile.LockRepair(ctx, db.path)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(db.path); !errors.Is(err, os.ErrNotExist) {
		return nil // another process made it
	}
	tmp := db.path + ".new"
	if err := sqlitefile.Remove(tmp); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	s := sql.OpenDB(newConnector(tmp, db.history))
	err = s.PingContext(ctx) // the connection makes the schemas
	if cerr := s.Close(); err == nil {
		err = cerr // closed, its WAL is checkpointed into the file
	}
	if err == nil {
		err = os.Rename(tmp, db.path)
	}
	sqlitefile.Remove(tmp) // what is left of it, if anything
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	return nil
}
