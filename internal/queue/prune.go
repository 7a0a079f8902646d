package queue

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
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
	stamp := filepath.Join(filepath.Dir(q.path), PrunedFile)
	last, err := lastPruned(stamp)
	if err != nil {
		return 0, err
	}
	if !last.IsZero() && !now.Before(last) && now.Sub(last) < pruneEvery {
		return 0, nil
	}
	n, err := q.prune(ctx, now.Add(-Retention), `'done'`)
	if err != nil {
		return 0, err
	}
	if err := atomicfile.WriteFile(stamp, []byte(formatTime(now)+"\n"), 0o644); err != nil {
		return n, fmt.Errorf("queue: prune: %w", err)
	}
	return n, nil
}

// lastPruned reads the time in the file at path; zero when there is no
// such file or it holds no time (it is written again).
func lastPruned(path string) (time.Time, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("queue: prune: %w", err)
	}
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(string(data)))
	if err != nil {
		return time.Time{}, nil
	}
	return t, nil
}
