package queue

import (
	"context"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

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
