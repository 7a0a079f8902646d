package queue

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// repair puts a new queue.db in place of the damaged one at path, which
// is kept beside it for inspection, and records what it held; the caller
// holds [sqlitefile.LockRepair]. The path never holds no queue.db: a
// process that found none would fail its capture. Other processes that
// have the damaged file open go on writing to it until it is replaced,
// so the repair takes its write lock first ([holdWrites]): the jobs not
// done are copied from it with none added after, and a write that waited
// for the lock then finds the new file at the path ([Queue.write]) and
// goes there.
func repair(ctx context.Context, path string, problem error, now time.Time, log *slog.Logger) error {
	d := Damage{At: now.UTC(), Problem: strings.Join(strings.Fields(problem.Error()), " ")}
	release := holdWrites(ctx, path)
	defer release()
	tmp := path + ".new"
	err := build(ctx, tmp, func(db *sql.DB) error {
		n, err := copyJobs(ctx, db, path)
		d.Kept = n
		return err
	})
	if err != nil {
		// The jobs cannot be read: say which sessions to capture again.
		d.Kept = 0
		d.Transcripts, d.Exact = salvage(path)
		if err := build(ctx, tmp, nil); err != nil {
			return err
		}
	} else {
		d.Exact = true
	}
	aside, err := sqlitefile.SetAsideFor(path, tmp, now)
	sqlitefile.Remove(tmp) // what is left of it, if anything
	if err != nil {
		return err
	}
	d.Aside = aside
	data, _ := json.MarshalIndent(d, "", "  ")
	if err := atomicfile.WriteFile(aside+".json", append(data, '\n'), 0o644); err != nil {
		log.Error("queue: record what the damaged queue held", "err", err)
	}
	if d.Exact && len(d.Transcripts) == 0 {
		log.Warn("queue.db was damaged: set aside, and a new queue started with the jobs not done it held",
			"aside", aside, "err", d.Problem, "kept", d.Kept)
		return nil
	}
	log.Warn("queue.db was damaged: set aside, and a new queue started; sessions it held may not be captured",
		"aside", aside, "err", d.Problem, "fix", d.Fix())
	return nil
}

// holdWrites takes the write lock of the damaged queue.db at path, which
// other processes may have open, and returns what gives it back; when the
// file cannot be locked (it is not a database: none can write to it),
// nothing is held. A writer that waits for the lock waits its busy
// timeout, far longer than a repair takes.
func holdWrites(ctx context.Context, path string) (release func()) {
	db, err := sql.Open("sqlite", sqlitefile.URI(path, "mode=rw&_pragma=busy_timeout(5000)&_txlock=immediate"))
	if err != nil {
		return func() {}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return func() {}
	}
	return func() {
		tx.Rollback()
		// Closed once the new file is in place, the connection neither
		// checkpoints nor removes the WAL at the path, which is the new
		// file's: SQLite sees that its file was moved.
		db.Close()
	}
}

// jobFields are the columns of a job, in the order of the jobs table.
const jobFields = `id, session, transcript, cwd, event, created, state, attempts, lease_until,
	next_try, last_error, start_off, end_off, tokens_in, tokens_out, facts, finished, skipped, extractor`

// copyJobs copies into the new queue db the jobs not done of the damaged
// one at from, as they are (their ids and leases too: a worker that holds
// one completes it in the new queue), and returns how many. The sessions'
// offsets and the day's spend are copied too when they can be read; when
// they cannot, a session's next job reads its transcript from the start.
func copyJobs(ctx context.Context, db *sql.DB, from string) (int, error) {
	if _, err := db.ExecContext(ctx, "ATTACH DATABASE ? AS damaged", from); err != nil {
		return 0, fmt.Errorf("read the damaged queue: %w", err)
	}
	defer db.ExecContext(ctx, "DETACH DATABASE damaged")
	res, err := db.ExecContext(ctx, `INSERT INTO jobs (`+jobFields+`)
		SELECT `+jobFields+` FROM damaged.jobs WHERE state != 'done'`)
	if err != nil {
		return 0, fmt.Errorf("copy the jobs of the damaged queue: %w", err)
	}
	n, _ := res.RowsAffected()
	for _, q := range []string{
		`INSERT INTO sessions SELECT session, transcript, done_off, updated FROM damaged.sessions`,
		`INSERT INTO spend SELECT day, tokens FROM damaged.spend`,
	} {
		db.ExecContext(ctx, q) // damaged too: started anew
	}
	return int(n), nil
}
