package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
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
	Lease       time.Duration // how long a job stays leased without a renewal (renewed every third of it)
	Timeout     time.Duration // how long one job may take
	MaxAttempts int
}

// DefaultTimeout is how long one job may take: the extractor's calls
// included, which a model may take minutes to answer.
const DefaultTimeout = 10 * time.Minute

// recordTimeout bounds the write that records how a job ended. It runs
// on a context of its own: when the worker is stopping, its own context
// is cancelled, and the record must still be made.
const recordTimeout = 10 * time.Second

// lockWait is how long a starting worker tries for the lock before it
// takes it to be another worker's.
const lockWait = 250 * time.Millisecond

// Run takes jobs until the queue has been empty for Idle, or ctx ends
// (a job in hand is then released), and lets go of the lock. It returns
// ErrRunning when another worker holds the lock, and [ErrStateGone] when
// its state folder was deleted under it.
func (w *Worker) Run(ctx context.Context) error {
	path := filepath.Join(w.StateDir, queue.WorkerLockFile)
	fl := flock.New(path)
	// A probe ([queue.WorkerRunning], from a hook or doctor) holds the lock
	// for an instant: a worker starting then must not take it for another
	// worker's and exit, leaving the queue to wait for the next hook.
	lctx, cancel := context.WithTimeout(ctx, lockWait)
	ok, err := fl.TryLockContext(lctx, 10*time.Millisecond)
	cancel()
	if err != nil && lctx.Err() == nil {
		return fmt.Errorf("worker: lock: %w", err)
	}
	if !ok {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return ErrRunning
	}
	defer fl.Unlock()
	held, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("worker: lock: %w", err)
	}
	w.pruneQueue(ctx)
	idleSince := w.Now()
	for ctx.Err() == nil {
		// A lock file that is no longer the one held means the state
		// folder was deleted: a new worker may hold the new one, and the
		// queue this one has open is gone.
		if now, err := os.Stat(path); err != nil || !os.SameFile(held, now) {
			return fmt.Errorf("worker: %w: %s", ErrStateGone, w.StateDir)
		}
		j, ok, err := w.Queue.Lease(ctx, w.lease())
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
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
		case <-time.After(w.poll()):
		}
	}
	return nil
}

// ErrStateGone is returned by [Worker.Run] when the state folder it
// works in was deleted while it ran: it stops rather than share the
// project with a worker started on the new folder.
var ErrStateGone = errors.New("the state folder was deleted while the worker ran; stopping")

// pruneQueue deletes the done jobs past the queue's retention, once a day
// ([queue.Queue.PruneDaily]); a failure is logged, never the worker's.
func (w *Worker) pruneQueue(ctx context.Context) {
	n, err := w.Queue.PruneDaily(ctx, w.Now())
	if err != nil {
		w.Log.Warn("worker: prune the queue", "err", err)
		return
	}
	if n > 0 {
		w.Log.Info("queue pruned", "jobs", n)
	}
}

// one processes a leased job, renewing its lease while it runs, and
// records how it ended; it logs one line. A job the worker is stopping
// in the middle of (ctx ended) is released, not failed: the attempt does
// not count and the next worker takes it at once.
func (w *Worker) one(ctx context.Context, j queue.Job) {
	start := w.Now()
	jctx, cancel := context.WithTimeout(ctx, w.timeout())
	defer cancel()
	renewed := w.renew(jctx, cancel, j)
	res, err := w.Process(jctx, j)
	cancel()
	lost := <-renewed
	ms := w.Now().Sub(start).Milliseconds()
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer rcancel()
	switch {
	case lost != nil:
		w.Log.Error("job abandoned", "id", j.ID, "session", j.Session, "ms", ms, "err", lost)
	case err != nil && ctx.Err() != nil:
		if rerr := w.Queue.Release(rctx, j); rerr != nil {
			w.Log.Error("job", "id", j.ID, "err", rerr)
		}
		w.Log.Info("job released: the worker is stopping", "id", j.ID, "session", j.Session, "ms", ms)
	case err != nil:
		if ferr := w.Queue.Fail(rctx, j, err, w.maxAttempts()); ferr != nil {
			w.Log.Error("job", "id", j.ID, "err", ferr)
		}
		w.Log.Error("job failed", "id", j.ID, "session", j.Session, "attempt", j.Attempts, "ms", ms, "err", err)
	default:
		if err := w.Queue.Complete(rctx, j, res); err != nil {
			w.Log.Error("job", "id", j.ID, "err", err)
			return
		}
		w.Log.Info("job done", "id", j.ID, "session", j.Session, "event", j.Event,
			"bytes", res.EndOff-res.StartOff, "tokens_in", res.TokensIn, "tokens_out", res.TokensOut,
			"facts", res.Facts, "ms", ms)
	}
}

// renew renews j's lease every third of it until ctx ends. When the
// lease is lost (another worker took the job after a stall longer than
// the lease), it cancels the job and sends why; else it sends nil.
func (w *Worker) renew(ctx context.Context, cancel context.CancelFunc, j queue.Job) <-chan error {
	done := make(chan error, 1)
	go func() {
		t := time.NewTicker(w.lease() / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				done <- nil
				return
			case <-t.C:
				err := w.Queue.Renew(ctx, j, w.lease())
				if errors.Is(err, queue.ErrLeaseLost) {
					cancel()
					done <- err
					return
				}
				if err != nil && ctx.Err() == nil {
					w.Log.Warn("renew the lease", "id", j.ID, "err", err)
				}
			}
		}
	}()
	return done
}

func (w *Worker) timeout() time.Duration {
	if w.Timeout > 0 {
		return w.Timeout
	}
	return DefaultTimeout
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
