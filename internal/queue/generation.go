package queue

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A queue.db's generation tells one file at the path from the one a
// repair put there after it: a number drawn when the file is made, kept
// as its user_version (bytes 60-63 of the header; 0 in a file made before
// generations). A connection opened before a repair goes on writing to
// the damaged file, now set aside, in WAL mode without an error: its jobs
// would be lost, and one that reads would answer from the old file. Each
// transaction ([Queue.run]) compares the generation its connection reads
// with the one of the file at the path, inside the transaction: a write
// where the repair (which holds the damaged file's write lock while it
// copies the jobs and puts the new file in place) cannot come between, a
// read where its snapshot is of a file that was at the path when taken.

// newGeneration draws a generation for a new queue.db: never 0.
func newGeneration() uint32 { return rand.Uint32()>>1 | 1 }

// generationAt reads the generation of the file at path from its header,
// which holds it from the moment the file is made (it is made with a
// rollback journal, then renamed into place).
func generationAt(path string) (uint32, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var b [4]byte
	if _, err := f.ReadAt(b[:], 60); errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("%w: %s is shorter than its header (truncated)", errDamaged, path)
	} else if err != nil {
		return 0, fmt.Errorf("read the header of %s: %w", path, err)
	}
	return binary.BigEndian.Uint32(b[:]), nil
}

// errReplaced says that the connection's queue.db is no longer the one at
// the path: a repair replaced it.
var errReplaced = errors.New("queue.db was replaced since this connection opened it")

// write runs f in a write transaction (BEGIN IMMEDIATE: the write lock
// taken at once) on the queue.db now at the path: see [Queue.run].
func (q *Queue) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	return q.run(ctx, true, f)
}

// read runs f in a read transaction on the queue.db now at the path, so
// that a handle opened before a repair answers from the new file, as a
// write writes to it: see [Queue.run]. The transaction is deferred (the
// first read takes its snapshot) and takes no write lock, so a read
// waits for no writer.
func (q *Queue) read(ctx context.Context, f func(tx *sql.Tx) error) error {
	return q.run(ctx, false, f)
}

// run runs f in a transaction on a connection to the queue.db now at the
// path. A connection that holds a file a repair replaced is rolled back
// and dropped, with the other idle ones, and f runs again on a new
// connection; a statement that meets damage, read or write, repairs the
// file first ([Queue.healed]): the stop hook's enqueue then lands in the
// new file, and the worker reads the offset it completed there. A
// transaction SQLite refused as busy without waiting (see
// [sqlitefile.IsBusy]) is made again, a little later each time,
// [busyTries] times at most: one in the race tests of a repair, on a
// loaded machine, lost an enqueued job.
func (q *Queue) run(ctx context.Context, write bool, f func(tx *sql.Tx) error) error {
	return sqlitefile.Retry(ctx, q.healed, func() error {
		return unbusy(ctx, func() error { return q.once(ctx, write, f) })
	})
}

// unbusy runs f, and again when SQLite refused it as busy without
// waiting, [busyTries] times at most, never past ctx.
func unbusy(ctx context.Context, f func() error) error {
	for busy := 0; ; busy++ {
		err := f()
		if !sqlitefile.IsBusy(err) || busy == busyTries || ctx.Err() != nil {
			return err
		}
		select {
		case <-time.After(time.Duration(busy+1) * busyPause):
		case <-ctx.Done():
			return err
		}
	}
}

// busyTries bounds how often a transaction refused as busy is made
// again, and busyPause is the wait before the first try again (then
// twice, three times it): at most 0.3 s in all, and never past the
// caller's context (a hook's deadline).
const (
	busyTries = 5
	busyPause = 20 * time.Millisecond
)

// idleConns is how many idle connections a queue keeps: database/sql's
// default.
const idleConns = 2

// once runs f in one transaction, a write one when write is set, after
// checking, inside it, that the connection's file is the one at the path.
func (q *Queue) once(ctx context.Context, write bool, f func(tx *sql.Tx) error) error {
	tx, err := q.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: !write})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var have uint32
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return err
	}
	at, err := generationAt(q.path)
	if err != nil {
		return err
	}
	if have != at {
		return errReplaced
	}
	if err := f(tx); err != nil {
		return err
	}
	return tx.Commit()
}
