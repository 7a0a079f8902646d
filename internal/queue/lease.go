package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Policy: how long a lease lasts, and how often a job is tried. A
// worker renews its lease while the job runs ([Queue.Renew], every third
// of the lease), so a lease runs out only when the worker is gone: then
// the job is taken again within DefaultLease.
const (
	DefaultLease       = 10 * time.Second
	DefaultMaxAttempts = 5
)

// ErrLeaseLost is returned when a job is no longer leased by the caller:
// its lease ran out and another worker took it, or it was dropped.
var ErrLeaseLost = errors.New("the job is no longer leased by this worker")

// Lease takes the oldest job that is ready: pending, failed and due for a
// retry, or leased by a worker whose lease ran out (it died). It reports
// false when none is ready. A claim is one statement, so two workers never
// take one job.
func (q *Queue) Lease(ctx context.Context, d time.Duration) (Job, bool, error) {
	now := q.Now()
	var j Job
	found := false
	err := q.write(ctx, func(tx *sql.Tx) error {
		// A job whose worker died again and again is dead, not leased forever.
		if _, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'dead', lease_until = NULL,
		last_error = 'the worker stopped while processing it ' || attempts || ' times'
		WHERE state = 'leased' AND lease_until <= ? AND attempts >= ?`, formatTime(now), DefaultMaxAttempts); err != nil {
			return err
		}
		row := tx.QueryRowContext(ctx, `UPDATE jobs SET state = 'leased', attempts = attempts + 1, lease_until = ?
		WHERE id = (SELECT id FROM jobs
			WHERE state = 'pending' OR (state = 'failed' AND next_try <= ?) OR (state = 'leased' AND lease_until <= ?)
			ORDER BY id LIMIT 1)
		RETURNING `+jobColumns, formatTime(now.Add(d)), formatTime(now), formatTime(now))
		var err error
		j, err = scanJob(row)
		found = err == nil
		if errors.Is(err, sql.ErrNoRows) {
			return nil // the dead are still recorded
		}
		return err
	})
	if err != nil {
		return Job{}, false, fmt.Errorf("queue: lease: %w", err)
	}
	return j, found, nil
}

// Offset returns how far a session's transcript has been processed: where
// its next job starts reading. An offset belongs to the file it was
// reached in: for another transcript path the session starts at 0.
func (q *Queue) Offset(ctx context.Context, session, transcript string) (int64, error) {
	var off int64
	var done string
	err := q.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT done_off, transcript FROM sessions WHERE session = ?`, session).Scan(&off, &done)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("queue: offset: %w", err)
	}
	if done != transcript {
		return 0, nil
	}
	return off, nil
}

// A Result is what processing a job did.
type Result struct {
	StartOff, EndOff    int64 // the byte range of the transcript read
	TokensIn, TokensOut int
	Facts               int
	Skipped             string // why nothing was extracted on purpose; "" when extraction ran
	// Parts are the other transcripts read with the job's own (its
	// sub-agents'), each with the offset reached: Complete records them
	// as their own sessions' offsets.
	Parts []Part
}

// A Part is a transcript read with a job's own, and where reading it stopped.
type Part struct {
	Session    string // its key in the sessions table, as [Queue.Offset] takes it
	Transcript string
	EndOff     int64
}

// Complete marks a job done and advances its session's offset, in one
// transaction: a worker that dies before Complete leaves the job to be
// leased again from the same offset, so each range is processed to
// completion exactly once.
func (q *Queue) Complete(ctx context.Context, j Job, r Result) error {
	now := formatTime(q.Now())
	err := q.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE jobs SET state = 'done', lease_until = NULL, last_error = '',
		start_off = ?, end_off = ?, tokens_in = ?, tokens_out = ?, facts = ?, finished = ?, skipped = ?
		WHERE id = ? AND state = 'leased' AND attempts = ?`, r.StartOff, r.EndOff, r.TokensIn, r.TokensOut, r.Facts, now, r.Skipped, j.ID, j.Attempts)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrLeaseLost
		}
		parts := append([]Part{{Session: j.Session, Transcript: j.Transcript, EndOff: r.EndOff}}, r.Parts...)
		for _, p := range parts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (session, transcript, done_off, updated) VALUES (?, ?, ?, ?)
		ON CONFLICT (session) DO UPDATE SET transcript = excluded.transcript,
			done_off = CASE WHEN transcript = excluded.transcript THEN max(done_off, excluded.done_off) ELSE excluded.done_off END,
			updated = excluded.updated`,
				p.Session, p.Transcript, p.EndOff, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("queue: complete %d: %w", j.ID, err)
	}
	return nil
}

// Fail records a failed attempt: the job is retried after a backoff that
// doubles with each attempt, or is dead after maxAttempts.
func (q *Queue) Fail(ctx context.Context, j Job, cause error, maxAttempts int) error {
	now := q.Now()
	state, next := "failed", sql.NullString{String: formatTime(now.Add(backoff(j.Attempts))), Valid: true}
	if j.Attempts >= maxAttempts {
		state, next = "dead", sql.NullString{}
	}
	return q.leased(ctx, j, "fail", `UPDATE jobs SET state = ?, next_try = ?, lease_until = NULL, last_error = ?
		WHERE id = ? AND state = 'leased' AND attempts = ?`, state, next, cause.Error(), j.ID, j.Attempts)
}

// Renew extends the lease of a job the caller holds to d from now. It
// returns [ErrLeaseLost] when the caller's lease is gone.
func (q *Queue) Renew(ctx context.Context, j Job, d time.Duration) error {
	return q.leased(ctx, j, "renew", `UPDATE jobs SET lease_until = ?
		WHERE id = ? AND state = 'leased' AND attempts = ?`, formatTime(q.Now().Add(d)), j.ID, j.Attempts)
}

// Release gives back a job the caller holds and has not finished (the
// worker is stopping): it is pending again, and the attempt does not count.
func (q *Queue) Release(ctx context.Context, j Job) error {
	return q.leased(ctx, j, "release", `UPDATE jobs SET state = 'pending', attempts = attempts - 1, lease_until = NULL
		WHERE id = ? AND state = 'leased' AND attempts = ?`, j.ID, j.Attempts)
}

// leased runs an update of a job the caller leased: its attempts say
// which lease is the caller's.
func (q *Queue) leased(ctx context.Context, j Job, op, query string, args ...any) error {
	err := q.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return ErrLeaseLost
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("queue: %s %d: %w", op, j.ID, err)
	}
	return nil
}

// backoff is 30 s, 1 min, 2 min, … capped at an hour.
func backoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// Retry makes a failed or dead job pending again, its attempts reset.
func (q *Queue) Retry(ctx context.Context, id int64) error {
	return q.exec1(ctx, id, `UPDATE jobs SET state = 'pending', attempts = 0, next_try = NULL
		WHERE id = ? AND state IN ('failed', 'dead', 'pending')`)
}

// Drop deletes a job that is not leased.
func (q *Queue) Drop(ctx context.Context, id int64) error {
	return q.exec1(ctx, id, `DELETE FROM jobs WHERE id = ? AND state != 'leased'`)
}

// exec1 runs an update of the job id that must change it, and says what
// the job is when it does not.
func (q *Queue) exec1(ctx context.Context, id int64, query string) error {
	var state string
	err := q.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		if err := tx.QueryRowContext(ctx, `SELECT state FROM jobs WHERE id = ?`, id).Scan(&state); err != nil {
			return ErrNotFound
		}
		return errUnchanged
	})
	if errors.Is(err, errUnchanged) {
		return fmt.Errorf("queue: job %d is %s", id, state)
	}
	if err != nil {
		return fmt.Errorf("queue: job %d: %w", id, err)
	}
	return nil
}

// errUnchanged says that a job is in a state the update does not change.
var errUnchanged = errors.New("the job is not in a state the update changes")

// Prune deletes done and dead jobs that finished before cutoff, and
// reports how many.
func (q *Queue) Prune(ctx context.Context, cutoff time.Time) (int, error) {
	return q.prune(ctx, cutoff, `'done', 'dead'`)
}

// prune deletes the jobs in states (a list of SQL strings) that finished
// before cutoff.
func (q *Queue) prune(ctx context.Context, cutoff time.Time, states string) (int, error) {
	var n int64
	err := q.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM jobs WHERE state IN (`+states+`)
		AND coalesce(finished, created) < ?`, formatTime(cutoff))
		if err != nil {
			return err
		}
		n, _ = res.RowsAffected()
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("queue: prune: %w", err)
	}
	return int(n), nil
}

// Counts returns how many jobs are in each state.
func (q *Queue) Counts(ctx context.Context) (map[string]int, error) {
	var out map[string]int
	err := q.read(ctx, func(tx *sql.Tx) error {
		out = map[string]int{}
		rows, err := tx.QueryContext(ctx, `SELECT state, count(*) FROM jobs GROUP BY state`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			var n int
			if err := rows.Scan(&s, &n); err != nil {
				return err
			}
			out[s] = n
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("queue: counts: %w", err)
	}
	return out, nil
}

// Totals are what the worker has done and spent.
type Totals struct {
	Jobs      int `json:"jobs"`
	Skipped   int `json:"skipped"` // jobs done without extraction, on purpose
	Facts     int `json:"facts"`
	TokensIn  int `json:"tokens_in"`
	TokensOut int `json:"tokens_out"`
}

// Totals sums the finished jobs, those finished at or after since (zero: all).
func (q *Queue) Totals(ctx context.Context, since time.Time) (Totals, error) {
	var t Totals
	err := q.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT count(*), count(nullif(skipped, '')), coalesce(sum(facts), 0),
		coalesce(sum(tokens_in), 0), coalesce(sum(tokens_out), 0)
		FROM jobs WHERE state = 'done' AND finished >= ?`, formatTime(since)).Scan(&t.Jobs, &t.Skipped, &t.Facts, &t.TokensIn, &t.TokensOut)
	})
	if err != nil {
		return t, fmt.Errorf("queue: totals: %w", err)
	}
	return t, nil
}

// LastSkip returns why the newest skipped job was skipped, "" when no job was.
func (q *Queue) LastSkip(ctx context.Context) (string, error) {
	var why string
	err := q.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT skipped FROM jobs WHERE state = 'done' AND skipped != ''
		ORDER BY id DESC LIMIT 1`).Scan(&why)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("queue: last skip: %w", err)
	}
	return why, nil
}
