package index

import (
	"context"
	"fmt"
	"time"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

const day = 24 * time.Hour

// The bounds of the history. Recalls need none: they are counted in one
// row per memory, not one per recall. Nor do verdicts: a memory keeps its
// last one, with the time it entered that state (what mnemo gc asks).
const (
	// SessionLife is how long the injection records of a session are kept
	// after its last injection. Claude Code deletes a session's transcript
	// 30 days after its last activity (cleanupPeriodDays), and a session
	// without one cannot be resumed; a session resumed later than this
	// is given a memory again at most once.
	SessionLife = 30 * day
	// OrphanLife is how long the recall statistics and the verdict of a
	// memory that is not in its vault (renamed, deleted, or on another
	// branch) are kept after they last changed, in case it comes back.
	// It is the longest horizon of the expiry policy (references, 180
	// days): an orphan older than that would not change what gc decides.
	OrphanLife = 180 * day
)

// Pruned counts the rows [DB.PruneHistory] deleted.
type Pruned struct {
	Injections, Recalls, Verdicts, Deliveries int
}

// PruneHistory deletes, in one transaction, the history past its bounds
// at now: the injections of sessions whose last one is older than
// [SessionLife], the sizes of deliveries older than that, and the recall statistics and verdicts of memories not
// in the index that last changed before [OrphanLife]. It runs where no
// hook waits (the worker, mnemo gc --apply), after a [DB.Sync]: a memory
// counts as gone only from a vault that holds some memory in the index,
// so that a vault folder missing for a while does not lose its history.
func (db *DB) PruneHistory(ctx context.Context, now time.Time) (Pruned, error) {
	return sqlitefile.Retried(ctx, db.healed, func() (Pruned, error) { return db.pruneHistory(ctx, now) })
}

func (db *DB) pruneHistory(ctx context.Context, now time.Time) (Pruned, error) {
	var p Pruned
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return p, fmt.Errorf("index: prune history: %w", err)
	}
	defer tx.Rollback()
	for _, q := range []struct {
		n      *int
		query  string
		before time.Time
	}{
		{&p.Injections, `DELETE FROM history.injections WHERE session IN
			(SELECT session FROM history.injections GROUP BY session HAVING max(at) < ?)`, now.Add(-SessionLife)},
		{&p.Deliveries, `DELETE FROM history.deliveries WHERE at < ?`, now.Add(-SessionLife)},
		{&p.Recalls, `DELETE FROM history.recall_stats AS h WHERE last < ?` + orphan, now.Add(-OrphanLife)},
		{&p.Verdicts, `DELETE FROM history.verify_state AS h WHERE checked < ?` + orphan, now.Add(-OrphanLife)},
	} {
		res, err := tx.ExecContext(ctx, q.query, formatTime(q.before))
		if err != nil {
			return p, fmt.Errorf("index: prune history: %w", err)
		}
		n, _ := res.RowsAffected()
		*q.n = int(n)
	}
	if err := tx.Commit(); err != nil {
		return p, fmt.Errorf("index: prune history: %w", err)
	}
	return p, nil
}

// orphan narrows a delete from a history table h to the memories not in
// the index whose vault is.
const orphan = ` AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.source = h.source AND m.name = h.name)
	AND EXISTS (SELECT 1 FROM memories m WHERE m.source = h.source)`
