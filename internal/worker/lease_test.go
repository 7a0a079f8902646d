package worker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/queue"
)

// blockingWorker is a worker of p whose Process signals started, then
// returns when ctx ends or release is closed.
func blockingWorker(p *project, lease time.Duration, started chan<- queue.Job, release <-chan struct{}) *Worker {
	return &Worker{StateDir: p.state, Queue: p.q, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: time.Now,
		Lease: lease, Poll: 10 * time.Millisecond,
		Process: func(ctx context.Context, j queue.Job) (queue.Result, error) {
			started <- j
			select {
			case <-ctx.Done():
				return queue.Result{}, ctx.Err()
			case <-release:
				return queue.Result{}, nil
			}
		}}
}

// TestStopReleasesJob: a worker whose context ends in the middle of a job
// (SIGTERM, SIGINT) gives the job back, its attempt not counted, and lets
// go of its lock; the record is made though the worker's context is done.
func TestStopReleasesJob(t *testing.T) {
	p := newProject(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	id, _ := p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	started := make(chan queue.Job, 1)
	w := blockingWorker(p, time.Minute, started, nil)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	<-started
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after its context ended = %v, want nil", err)
	}
	j, err := p.q.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if j.State != "pending" || j.Attempts != 0 {
		t.Errorf("job after the worker stopped: state %s, attempts %d; want pending, 0", j.State, j.Attempts)
	}
	fl := flock.New(filepath.Join(p.state, queue.WorkerLockFile))
	if ok, err := fl.TryLock(); !ok || err != nil {
		t.Errorf("the worker lock is still held after Run returned (%v, %v)", ok, err)
	}
	fl.Unlock()
}

// TestLeaseRenewed: a job that runs longer than its lease keeps it (the
// worker renews it), so no other worker takes it, and it is done once.
// The queues run on the test's clock: a lease ends when the test moves
// the clock past it, not when a loaded machine is late to renew it (with
// a lease of 300 ms of real time, another worker took the job in a CI
// run whose worker was not scheduled in time).
func TestLeaseRenewed(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	c := &syncClock{t: time.Now()}
	p.q.Now = c.now
	id, _ := p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	started, release := make(chan queue.Job, 1), make(chan struct{})
	lease := 300 * time.Millisecond
	w := blockingWorker(p, lease, started, release)
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	<-started
	other, err := queue.Open(ctx, p.state, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.Now = c.now
	for range 3 { // three leases long
		c.advance(lease) // the lease ends now unless the worker renews it
		waitRenewed(t, p.q, id, c.now())
		if j, ok, _ := other.Lease(ctx, lease); ok {
			t.Fatalf("another worker leased job %d while its worker ran it", j.ID)
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if j, _ := p.q.Get(ctx, id); j.State != "done" || j.Attempts != 1 {
		t.Errorf("job: state %s, attempts %d; want done, 1", j.State, j.Attempts)
	}
}

// waitRenewed waits until job id's lease runs past now: its worker renewed
// it. A minute without a renewal is a worker that does not renew.
func waitRenewed(t *testing.T, q *queue.Queue, id int64, now time.Time) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		j, err := q.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if j.State != "leased" {
			t.Fatalf("job %d is %s, want leased by its worker", id, j.State)
		}
		if j.LeaseUntil.After(now) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d's lease ends at %s, and its worker did not renew it past %s", id,
				j.LeaseUntil.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano))
		}
	}
}

// TestKilledWorkersJobTaken: the job of a worker that stopped renewing
// (killed) is taken by the next worker once its short lease ends.
func TestKilledWorkersJobTaken(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	id, _ := p.q.Enqueue(ctx, queue.Job{Session: "s1", Transcript: "/t/s1.jsonl", Event: "session-end"})
	if _, ok, _ := p.q.Lease(ctx, queue.DefaultLease); !ok { // the worker that is then killed
		t.Fatal("no job to lease")
	}
	c := &clock{time.Now()}
	p.q.Now = c.now
	c.advance(queue.DefaultLease)
	j, ok, err := p.q.Lease(ctx, queue.DefaultLease)
	if err != nil || !ok || j.ID != id {
		t.Errorf("Lease %v after the lease = %v, %v, %v; want job %d again", queue.DefaultLease, j.ID, ok, err, id)
	}
	if queue.DefaultLease > 30*time.Second {
		t.Errorf("DefaultLease = %v: a killed worker's job waits that long", queue.DefaultLease)
	}
}

// TestStateGone: a worker whose state folder is deleted under it stops.
func TestStateGone(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	w := blockingWorker(p, time.Minute, nil, nil)
	w.Idle = time.Minute
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for !queue.WorkerRunning(p.state) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	os.Remove(filepath.Join(p.state, queue.WorkerLockFile))
	if err := <-done; !errors.Is(err, ErrStateGone) {
		t.Errorf("Run = %v, want ErrStateGone", err)
	}
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

// syncClock is a clock that goroutines read while the test moves it.
type syncClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *syncClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *syncClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestProbeDoesNotStopAStart: a hook or doctor asking whether a worker
// runs holds the worker lock for an instant; a worker starting in that
// instant must not take it for another worker's and exit (TestStateGone
// failed so in CI: Run said a worker was already running).
func TestProbeDoesNotStopAStart(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	stop := make(chan struct{})
	var probes sync.WaitGroup
	probes.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				queue.WorkerRunning(p.state)
			}
		}
	})
	defer func() { close(stop); probes.Wait() }()
	for i := range 200 {
		w := blockingWorker(p, time.Minute, nil, nil)
		w.Idle = time.Millisecond
		if err := w.Run(ctx); err != nil {
			t.Fatalf("start %d with a probe running: Run = %v, want nil", i, err)
		}
	}
}
