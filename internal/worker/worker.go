package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/queue"
)

// ErrRunning is returned by [Worker.Run] when another worker holds the
// state folder's lock.
var ErrRunning = errors.New("a worker is already running for this project")

// A Worker drains a queue.
type Worker struct {
	StateDir string
	Queue    *queue.Queue
	Process  func(ctx context.Context, j queue.Job) (queue.Result, error)
	Log      *slog.Logger
	Now      func() time.Time

	Idle        time.Duration // exit after the queue has been empty this long; 0: after one pass
	Poll        time.Duration // how often an idle worker looks again
	Lease       time.Duration // how long a job may take before another worker may take it
	MaxAttempts int
}

// Run takes jobs until the queue has been empty for Idle, or ctx ends.
// It returns ErrRunning when another worker holds the lock.
func (w *Worker) Run(ctx context.Context) error {
	fl := flock.New(filepath.Join(w.StateDir, queue.WorkerLockFile))
	ok, err := fl.TryLock()
	if err != nil {
		return fmt.Errorf("worker: lock: %w", err)
	}
	if !ok {
		return ErrRunning
	}
	defer fl.Unlock()
	idleSince := w.Now()
	for {
		j, ok, err := w.Queue.Lease(ctx, w.lease())
		if err != nil {
			return err
		}
		if ok {
			w.one(ctx, j)
			idleSince = w.Now()
			continue
		}
		if w.Now().Sub(idleSince) >= w.Idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(w.poll()):
		}
	}
}

// one processes a leased job and records how it ended; it logs one line.
func (w *Worker) one(ctx context.Context, j queue.Job) {
	start := w.Now()
	jctx, cancel := context.WithTimeout(ctx, w.lease())
	defer cancel()
	res, err := w.Process(jctx, j)
	ms := w.Now().Sub(start).Milliseconds()
	if err != nil {
		if ferr := w.Queue.Fail(ctx, j, err, w.maxAttempts()); ferr != nil {
			w.Log.Error("job", "id", j.ID, "err", ferr)
		}
		w.Log.Error("job failed", "id", j.ID, "session", j.Session, "attempt", j.Attempts, "ms", ms, "err", err)
		return
	}
	if err := w.Queue.Complete(ctx, j, res); err != nil {
		w.Log.Error("job", "id", j.ID, "err", err)
		return
	}
	w.Log.Info("job done", "id", j.ID, "session", j.Session, "event", j.Event,
		"bytes", res.EndOff-res.StartOff, "tokens_in", res.TokensIn, "tokens_out", res.TokensOut,
		"facts", res.Facts, "ms", ms)
}

func (w *Worker) lease() time.Duration {
	if w.Lease > 0 {
		return w.Lease
	}
	return queue.DefaultLease
}

func (w *Worker) poll() time.Duration {
	if w.Poll > 0 {
		return w.Poll
	}
	return time.Second
}

func (w *Worker) maxAttempts() int {
	if w.MaxAttempts > 0 {
		return w.MaxAttempts
	}
	return queue.DefaultMaxAttempts
}
