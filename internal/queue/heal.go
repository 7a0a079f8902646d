package queue

import (
	"context"
	"errors"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// healed reports whether err says that the connection's queue.db is not
// the one at the path ([errReplaced]), or is damaged, and if so mends it
// so that the transaction can be made again: a damaged file is repaired
// ([Queue.heal]), and the idle connections are dropped, so that the next
// opens the file now at the path. An I/O error is healed the same way: it
// is what a connection meets when another process's repair moved the
// file it had open; [Queue.heal] then finds the file at the path whole,
// and only the connections are made again. A repair that fails is
// logged, and err stands.
func (q *Queue) healed(ctx context.Context, err error) bool {
	switch {
	case errors.Is(err, errReplaced):
	case damaged(err) || sqlitefile.IsIOError(err):
		if herr := q.heal(ctx, err); herr != nil {
			q.log.Warn("queue.db is damaged: repair it", "path", q.path, "err", err, "repair", herr)
			return false
		}
	default:
		return false
	}
	q.db.SetMaxIdleConns(0)
	q.db.SetMaxIdleConns(idleConns)
	return true
}

// heal repairs the queue.db at the path after a statement met damage in
// it (cause): a table below the schema, where [Open]'s check found none
// when it opened. It runs under [sqlitefile.LockRepair], where the
// processes that met the same damage wait for the one that repairs it,
// and checks the file at the path again there: another process may have
// repaired it already, and then the caller only reconnects. The repair
// ([repair]) keeps the jobs not done it can read, and names the
// transcripts of those it cannot.
func (q *Queue) heal(ctx context.Context, cause error) error {
	unlock, err := sqlitefile.LockRepair(ctx, q.path)
	if err != nil {
		return err
	}
	defer unlock()
	if err := checkFile(ctx, q.path); !damaged(err) {
		return err
	}
	return repair(ctx, q.path, cause, q.Now(), q.log)
}
