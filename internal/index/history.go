package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"fmt"
	"os"
	"path/filepath"

	"modernc.org/sqlite"

	"github.com/mnemo-dev/mnemo/internal/migration"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// HistoryFileName is the history's file, beside the index. It holds what
// mnemo learns from use and cannot rebuild from the memory files: recall
// statistics, the memories injected into each session, and verdicts.
// Unlike index.db it is not a cache: its schema migrates forward (the
// files in history/) and is never dropped.
const HistoryFileName = "history.db"

//go:embed history/*.sql
var historyMigrations embed.FS

// historyDir is the folder of historyMigrations, and the prefix of the
// names history.db's migrations table records.
const historyDir = "history"

// A historyError is an error of history.db rather than of index.db: when
// it says the file is not a database, the history is set aside, not the index.
type historyError struct{ err error }

func (e *historyError) Error() string { return "history: " + e.err.Error() }
func (e *historyError) Unwrap() error { return e.err }

// A connector opens the index's connections, each with the history
// attached. The history shares the connection rather than having a pool of
// its own, so that a search joins recall statistics with memories in one
// query, and a write transaction takes both files' write locks at BEGIN.
// (SQLite commits the two one after the other, not atomically as a pair;
// no transaction here writes both.)
type connector struct {
	drv   *sqlite.Driver
	dsn   string
	dir   string   // the state folder index.db is in
	paths []string // index.db and history.db, which each connection follows
}

// newConnector returns a connector to the index at path with the history
// at history attached. Its driver is its own, so that the attachment
// reaches no other database the process opens. Its connections follow
// the files ([sqlitefile.Follow]): one opened before another process
// rebuilt the index, or replaced the history, is dropped at its next
// statement, and the next connection opens the new file.
func newConnector(path, history string) connector {
	drv := &sqlite.Driver{}
	drv.RegisterConnectionHook(func(c sqlite.ExecQuerierContext, _ string) error {
		if err := attachHistory(c, history); err != nil {
			return &historyError{err}
		}
		return ensureSchemas(c, history)
	})
	return connector{drv: drv, dsn: dsn(path), dir: filepath.Dir(path), paths: []string{path, history}}
}

// Connect opens a connection. The state folder is made again first: it may
// have been removed since the index was opened (see [ensureSchemas]).
func (c connector) Connect(context.Context) (driver.Conn, error) {
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return nil, err
	}
	return sqlitefile.Follow(func() (driver.Conn, error) { return c.drv.Open(c.dsn) }, c.paths...)
}
func (c connector) Driver() driver.Driver { return c.drv }

// attachHistory attaches the history to a new connection. It keeps a
// rollback journal, truncated at each commit, with synchronous FULL: a
// commit is on disk when it returns. It is not in WAL mode like the index:
// a hook opens both files in a new process, and a second WAL (its -wal and
// -shm made and mapped at open, checkpointed and removed at close) made a
// hook's use of the index 1 ms slower (medians of 15 interleaved runs: 5.7
// ms against 4.7 with no history file), the rollback journal no slower
// (4.6 ms). The price is that a commit to the history waits for the reads
// of it in progress, which last a search.
func attachHistory(c sqlite.ExecQuerierContext, path string) error {
	ctx := context.Background()
	if _, err := c.ExecContext(ctx, "ATTACH DATABASE ? AS history", []driver.NamedValue{{Ordinal: 1, Value: path}}); err != nil {
		return fmt.Errorf("attach %s: %w", path, err)
	}
	for _, p := range []string{"journal_mode = " + historyJournal, "synchronous = " + historySync} {
		rows, err := c.QueryContext(ctx, "PRAGMA history."+p, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		rows.Close()
	}
	return journalMode(ctx, c)
}

// journalMode checks that the history keeps a rollback journal, or a
// WAL: a file in WAL mode (which a later build may choose) stays so while
// another process has it open, and works as well.
func journalMode(ctx context.Context, c sqlite.ExecQuerierContext) error {
	rows, err := c.QueryContext(ctx, "PRAGMA history.journal_mode", nil)
	if err != nil {
		return fmt.Errorf("journal mode: %w", err)
	}
	defer rows.Close()
	mode := make([]driver.Value, 1)
	if err := rows.Next(mode); err != nil {
		return fmt.Errorf("journal mode: %w", err)
	}
	if mode[0] != historyJournal && mode[0] != "wal" {
		return fmt.Errorf("journal_mode is %v, want %s", mode[0], historyJournal)
	}
	return nil
}

// The history's journal mode and synchronous setting (see
// [attachHistory]), which hold per connection.
const (
	historyJournal = "truncate"
	historySync    = "full"
)

// migrateHistory applies the history migrations not yet applied. It
// checks through the attached connection, which costs a hook one query;
// the migrations themselves run through a connection of their own to
// history.db, where their SQL names its tables without a schema.
func (db *DB) migrateHistory(ctx context.Context) error {
	names, err := migration.Names(historyMigrations, historyDir)
	if err != nil {
		return err
	}
	if migration.Applied(ctx, db.sql, "history.migrations", names) {
		return nil
	}
	return applyHistory(ctx, db.history)
}

// applyHistory applies the history migrations to the history at path
// through a connection of its own.
func applyHistory(ctx context.Context, path string) error {
	s, err := sql.Open("sqlite", sqlitefile.URI(path, "")+"?_pragma=busy_timeout("+fmt.Sprint(DefaultBusyTimeout.Milliseconds())+")"+
		"&_pragma=journal_mode("+historyJournal+")&_pragma=synchronous("+historySync+")&_txlock=immediate")
	if err != nil {
		return err
	}
	defer s.Close()
	return migration.Apply(ctx, s, historyMigrations, historyDir)
}
