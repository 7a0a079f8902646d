package queue

import (
	"context"
	"database/sql"
	"fmt"
)

// Audit checks that the queue is consistent and returns each problem in
// words: no job leased while no worker runs (its worker died: the lease
// is held by no one), no byte range of a session's transcript processed
// twice (two done jobs whose ranges overlap), and no session whose
// recorded offset is behind what its done jobs read (its next job would
// read a range again). workerRunning says whether a worker holds the
// state folder's lock ([WorkerRunning]). It reads one snapshot of the
// queue.
func (q *Queue) Audit(ctx context.Context, workerRunning bool) ([]string, error) {
	var out []string
	err := q.read(ctx, func(tx *sql.Tx) error {
		out = nil
		if !workerRunning {
			leased, err := list(ctx, tx, []string{"leased"})
			if err != nil {
				return err
			}
			for _, j := range leased {
				out = append(out, fmt.Sprintf("job %d (session %s) is leased, but no worker runs: its worker died; the next worker takes it again", j.ID, j.Session))
			}
		}
		twice, err := overlaps(ctx, tx)
		if err != nil {
			return err
		}
		behind, err := behind(ctx, tx)
		out = append(append(out, twice...), behind...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("queue: audit: %w", err)
	}
	return out, nil
}

// overlaps lists the done jobs that read a range an earlier done job of
// the same session and transcript had read. A skipped job read nothing
// for good (its session's next job reads the range again), so it counts
// for nothing.
func overlaps(ctx context.Context, tx *sql.Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT b.id, a.id, b.session, b.start_off, b.end_off, a.start_off, a.end_off
		FROM jobs a JOIN jobs b ON a.session = b.session AND a.transcript = b.transcript AND a.id < b.id
		WHERE a.state = 'done' AND b.state = 'done' AND a.skipped = '' AND b.skipped = ''
			AND a.end_off > a.start_off AND b.end_off > b.start_off
			AND b.start_off < a.end_off AND a.start_off < b.end_off
		ORDER BY b.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var b, a int64
		var session string
		var bs, be, as, ae int64
		if err := rows.Scan(&b, &a, &session, &bs, &be, &as, &ae); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("job %d (session %s) processed bytes %d-%d, which job %d had processed (%d-%d): done twice", b, session, bs, be, a, as, ae))
	}
	return out, rows.Err()
}

// behind lists the sessions whose offset is short of the end of their
// last done job on the same transcript.
func behind(ctx context.Context, tx *sql.Tx) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT s.session, s.done_off, max(j.end_off)
		FROM sessions s JOIN jobs j ON j.session = s.session AND j.transcript = s.transcript
		WHERE j.state = 'done' AND j.skipped = ''
		GROUP BY s.session HAVING max(j.end_off) > s.done_off ORDER BY s.session`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var session string
		var off, end int64
		if err := rows.Scan(&session, &off, &end); err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("session %s is recorded at byte %d, but a done job read to %d: its next job would read the range again", session, off, end))
	}
	return out, rows.Err()
}
