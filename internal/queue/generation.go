package queue

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
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
// would be lost. [Queue.write] compares the generation its connection
// reads with the one of the file at the path, inside the transaction, where
// the repair (which holds the damaged file's write lock while it copies
// the jobs and puts the new file in place) cannot come between.

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
	if _, err := f.ReadAt(b[:], 60); err != nil {
		return 0, fmt.Errorf("read the header of %s: %w", path, err)
	}
	return binary.BigEndian.Uint32(b[:]), nil
}

// errReplaced says that the connection's queue.db is no longer the one at
// the path: a repair replaced it.
var errReplaced = errors.New("queue.db was replaced since this connection opened it")

// maxReplaced bounds how often a write goes to a new file: once is the
// rule (one repair), more is repairs in a row.
const maxReplaced = 3

// write runs f in a transaction (BEGIN IMMEDIATE: the write lock taken)
// on a connection to the queue.db now at the path. A connection that
// holds a file a repair replaced is rolled back and dropped, with the
// other idle ones, and f runs again on a new connection. A write that
// meets damage repairs the file first ([Queue.heal]), once: the stop
// hook's enqueue then lands in the new file. A write SQLite refused as
// busy without waiting (see [sqlitefile.IsBusy]) is made again, a little
// later each time, [busyTries] times at most: one in the race tests of a
// repair, on a loaded machine, lost an enqueued job.
func (q *Queue) write(ctx context.Context, f func(tx *sql.Tx) error) error {
	healed, tries, busy := false, 1, 0
	for {
		err := q.writeOnce(ctx, f)
		switch {
		case sqlitefile.IsBusy(err) && busy < busyTries && ctx.Err() == nil:
			busy++
			select {
			case <-time.After(time.Duration(busy) * busyPause):
			case <-ctx.Done():
				return err
			}
			continue
		case tries >= maxReplaced:
			return err
		case errors.Is(err, errReplaced):
		case damaged(err) && !healed && ctx.Err() == nil:
			if herr := q.heal(ctx, err); herr != nil {
				return fmt.Errorf("%w; repair: %w", err, herr)
			}
			healed = true
		default:
			return err
		}
		tries++
		q.db.SetMaxIdleConns(0)
		q.db.SetMaxIdleConns(idleConns)
	}
}

// busyTries bounds how often a write refused as busy is made again, and
// busyPause is the wait before the first try again (then twice, three
// times it): at most 0.3 s in all, and never past the caller's context
// (a hook's deadline).
const (
	busyTries = 5
	busyPause = 20 * time.Millisecond
)

// idleConns is how many idle connections a queue keeps: database/sql's
// default.
const idleConns = 2

func (q *Queue) writeOnce(ctx context.Context, f func(tx *sql.Tx) error) error {
	tx, err := q.db.BeginTx(ctx, nil)
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
