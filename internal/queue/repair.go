package queue

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"modernc.org/sqlite"

	"github.com/mnemo-dev/mnemo/internal/migration"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A Damage is what became of a queue.db found damaged: where it was set
// aside, and the sessions whose capture it may have held unprocessed.
// [Open] writes it beside the set-aside file, for doctor to tell.
type Damage struct {
	At      time.Time `json:"at"`
	Aside   string    `json:"aside"`   // the damaged file, renamed
	Problem string    `json:"problem"` // what was wrong with it
	// Transcripts are the transcripts to ingest again. With Exact they
	// are those of the jobs not done, read from the damaged file; else
	// every transcript path found in its bytes that still exists (which
	// of them were done cannot be told).
	Transcripts []string `json:"transcripts"`
	Exact       bool     `json:"exact"`
	// Kept is how many jobs not done were copied into the new queue,
	// which then lacks none of them (Exact, and no Transcripts).
	Kept int `json:"kept,omitempty"`
}

// Fix says what the person runs to capture what the damaged queue held.
func (d Damage) Fix() string {
	if d.Exact && len(d.Transcripts) == 0 {
		return fmt.Sprintf("nothing was lost: its %d jobs not done were copied into the new queue", d.Kept)
	}
	if len(d.Transcripts) == 0 {
		return "nothing could be read from it: mnemo ingest --all processes every past session again"
	}
	return "mnemo ingest " + strings.Join(d.Transcripts, " ")
}

// errDamaged marks a queue.db that opened but is not whole.
var errDamaged = errors.New("the database is damaged")

// damaged reports whether err says queue.db cannot be used as it is.
func damaged(err error) bool { return errors.Is(err, errDamaged) || sqlitefile.IsDamaged(err) }

// openOrRepair opens the queue.db at path. A file that is not a
// database, or is damaged, is replaced by a new one ([repair]), once,
// under [sqlitefile.LockRepair]; what was lost is logged as a warning and
// kept beside the set-aside file ([Damages]).
//
// Only a process holding the lock ever creates the file: every
// connection opens it "mode=rw", which fails where there is none. A
// process that opened while another set the file aside would otherwise
// make a new queue.db, and a WAL the repairer then moved aside as the
// damaged file's, and the jobs it added would be lost with it.
func openOrRepair(ctx context.Context, path string, now func() time.Time, log *slog.Logger) (*sql.DB, error) {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		db, err := openDB(ctx, path)
		if err == nil || ctx.Err() != nil {
			return db, err
		}
		// Damaged, or another process is replacing the file under us: try
		// again under the lock, where a repair has finished.
	}
	unlock, err := sqlitefile.LockRepair(ctx, path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Again, under the lock: another process may have made or repaired it.
	if err := empty(path); err != nil {
		if err := repair(ctx, path, err, now(), log); err != nil {
			return nil, err
		}
	}
	if err := create(ctx, path); err != nil {
		return nil, err
	}
	db, err := openDB(ctx, path)
	if damaged(err) {
		if err := repair(ctx, path, err, now(), log); err != nil {
			return nil, err
		}
		db, err = openDB(ctx, path)
	}
	return db, err
}

// create makes queue.db with its schema where there is none; the caller
// holds [sqlitefile.LockRepair]. It is made whole under another name and
// renamed into place, so that no process ever opens a queue.db without
// its schema.
func create(ctx context.Context, path string) error {
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	tmp := path + ".new"
	if err := build(ctx, tmp, nil); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		sqlitefile.Remove(tmp)
		return fmt.Errorf("create: %w", err)
	}
	return nil
}

// build makes a new queue.db at tmp with its schema and a generation of
// its own ([newGeneration]), then runs fill, if any, on it. It keeps a
// rollback journal, not a WAL: closed, the file is all there is; openDB
// makes it a WAL database.
func build(ctx context.Context, tmp string, fill func(*sql.DB) error) error {
	if err := sqlitefile.Remove(tmp); err != nil {
		return fmt.Errorf("create: %w", err)
	}
	db, err := sql.Open("sqlite", sqlitefile.URI(tmp, "mode=rwc&_pragma=journal_mode(delete)"))
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	err = migration.Apply(ctx, db, migrations, "migration")
	if err == nil {
		_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", newGeneration()))
	}
	if err == nil && fill != nil {
		err = fill(db)
	}
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		sqlitefile.Remove(tmp)
		return fmt.Errorf("create: %w", err)
	}
	return nil
}

// empty returns an error when path is an empty file with no WAL: a queue
// mnemo made always holds its schema, so an empty one was truncated. The
// WAL is looked at first: a checkpoint writes the file before it removes
// the WAL, so a file found empty after its WAL was found gone is empty.
func empty(path string) error {
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return nil
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() > 0 {
		return nil
	}
	return fmt.Errorf("%w: the file is empty (truncated)", errDamaged)
}

// pragmas are every connection's: busy_timeout, for a hook and the
// worker write at once; _txlock=immediate takes the write lock at BEGIN so
// two writers never deadlock upgrading; journal_size_limit, so that the
// WAL [sqlitefile.KeepWAL] keeps is truncated when the last connection
// closes, and the WAL of a queue.db not in use is empty (see [empty]).
const pragmas = "_pragma=busy_timeout(5000)&_pragma=journal_mode(wal)" +
	"&_pragma=synchronous(normal)&_pragma=journal_size_limit(1048576)&_txlock=immediate"

// openDB opens queue.db, brings its schema up to date and checks that the
// file is whole (PRAGMA quick_check: about 2 ms for a queue of 2,000 jobs
// here, where opening without it takes 0.5 ms; the worker prunes old jobs).
// Its connections keep the WAL ([sqlitefile.KeepWAL]): one that holds a
// damaged file a repair replaced never removes the new file's.
func openDB(ctx context.Context, path string) (*sql.DB, error) {
	drv := &sqlite.Driver{}
	drv.RegisterConnectionHook(sqlitefile.KeepWAL)
	db := sql.OpenDB(connector{drv: drv, dsn: sqlitefile.URI(path, "mode=rw&"+pragmas)})
	if err := migrateAndCheck(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// A connector opens a queue's connections with a driver of its own, whose
// connection hook reaches no other database the process opens.
type connector struct {
	drv *sqlite.Driver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.drv }

// salvage reads the transcripts of the jobs not done from a damaged
// queue.db, or, when SQLite cannot read it, the transcript paths that
// still exist among its bytes and its WAL's.
func salvage(path string) (transcripts []string, exact bool) {
	if ts, err := unfinished(path); err == nil {
		return ts, true
	}
	var out []string
	for _, p := range []string{path, path + "-wal"} {
		for _, t := range pathsIn(p) {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out, false
}

// unfinished reads the transcripts of the jobs not done, read-only.
func unfinished(path string) ([]string, error) {
	db, err := sql.Open("sqlite", sqlitefile.URI(path, "mode=ro"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	rows, err := db.Query(`SELECT transcript FROM jobs WHERE state != 'done' GROUP BY transcript ORDER BY min(id)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// maxSalvage bounds what is read of a damaged file looking for paths.
const maxSalvage = 64 << 20

// transcriptLike matches what may be a transcript path inside a record,
// where other columns' bytes may come right before it.
var transcriptLike = regexp.MustCompile(`/[^\x00-\x1f\x7f]*?\.jsonl?`)

// pathsIn finds the transcript paths among a file's bytes: each match is
// tried from each of its slashes, and kept from the first that names a
// regular file.
func pathsIn(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxSalvage))
	var out []string
	for _, m := range transcriptLike.FindAll(data, -1) {
		for i := range len(m) {
			if m[i] != '/' {
				continue
			}
			p := string(m[i:])
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}

// Damages returns what became of the damaged queues set aside in
// stateDir, oldest first.
func Damages(stateDir string) ([]Damage, error) {
	files, err := filepath.Glob(filepath.Join(stateDir, FileName+".damaged-*.json"))
	if err != nil {
		return nil, err
	}
	var out []Damage
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("queue: %w", err)
		}
		var d Damage
		if err := json.Unmarshal(data, &d); err != nil {
			return nil, fmt.Errorf("queue: %s: %w", f, err)
		}
		out = append(out, d)
	}
	return out, nil
}

// Check reports whether the queue.db in stateDir is damaged, changing
// nothing: nil when it is whole or there is none; else what [Open] would
// find wrong and set aside.
func Check(ctx context.Context, stateDir string) error {
	return checkFile(ctx, filepath.Join(stateDir, FileName))
}

// checkFile is [Check] of the queue.db at path.
func checkFile(ctx context.Context, path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := empty(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", sqlitefile.URI(path, "mode=ro&_pragma=busy_timeout(5000)"))
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&res); err != nil {
		if damaged(err) {
			return fmt.Errorf("%w: %w", errDamaged, err)
		}
		return err
	}
	if res != "ok" {
		return fmt.Errorf("%w: %s", errDamaged, res)
	}
	return nil
}

// IsDamaged reports whether err, from [Check], says the queue is damaged.
func IsDamaged(err error) bool { return damaged(err) }
