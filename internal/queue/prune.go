package queue

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/mnemo-dev/mnemo/internal/stamp"
)

// Retention is how long a finished job is kept: 'mnemo queue prune'
// deletes the older ones by default, and the worker the older done ones
// once a day ([Queue.PruneDaily]).
const Retention = 7 * 24 * time.Hour

// PrunedFile, beside queue.db, holds the time the worker last pruned the
// queue (RFC 3339).
const PrunedFile = "queue.pruned"

// pruneEvery is how often at most [Queue.PruneDaily] prunes.
const pruneEvery = 24 * time.Hour

// PruneDaily deletes the done jobs (skipped ones among them) that finished
// more than [Retention] before now, so that the queue, and the check of it
// every open makes, does not grow with every session ever captured. It
// prunes at most once a day ([PrunedFile] records when it last did; a time
// after now, from a clock set back, counts as due) and reports how many
// jobs it deleted. Dead jobs stay: they wait for a person to retry or drop
// them. Only the worker calls it, under its lock.
func (q *Queue) PruneDaily(ctx context.Context, now time.Time) (int, error) {
	path := filepath.Join(filepath.Dir(q.path), PrunedFile)
	due, err := stamp.Due(path, now, pruneEvery)
	if err != nil {
		return 0, fmt.Errorf("queue: prune: %w", err)
	}
	if !due {
		return 0, nil
	}
	n, err := q.prune(ctx, now.Add(-Retention), `'done'`)
	if err != nil {
		return 0, err
	}
	if err := stamp.Mark(path, now); err != nil {
		return n, fmt.Errorf("queue: prune: %w", err)
	}
	return n, nil
}
