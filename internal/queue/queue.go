package queue

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver

	"github.com/mnemo-dev/mnemo/internal/migration"
)

// FileName is the queue's file in a state folder.
const FileName = "queue.db"

//go:embed migration/*.sql
var migrations embed.FS

// A Queue is an open queue.db.
type Queue struct {
	db   *sql.DB
	path string
	log  *slog.Logger // where a repair's warning goes
	// Now is the clock; tests set it.
	Now func() time.Time
}

// Open opens (creating when missing) the queue in stateDir and brings its
// schema up to date. A queue.db that is not a database, is damaged or was
// truncated is set aside (queue.db.damaged-<time>, kept for inspection)
// and a new one made: the warning on log (which may be nil) names the
// sessions it held to ingest again, and [Damages] keeps them for doctor.
func Open(ctx context.Context, stateDir string, log *slog.Logger) (*Queue, error) {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	path := filepath.Join(stateDir, FileName)
	q := &Queue{path: path, log: log, Now: time.Now}
	db, err := openOrRepair(ctx, path, q.Now, log)
	if err != nil {
		return nil, fmt.Errorf("queue: open %s: %w", path, err)
	}
	q.db = db
	return q, nil
}

// migrateAndCheck brings the schema up to date and checks that the file
// is whole.
func migrateAndCheck(ctx context.Context, db *sql.DB) error {
	if err := migration.Apply(ctx, db, migrations, "migration"); err != nil {
		return err
	}
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("%w: %s", errDamaged, res)
	}
	return nil
}

// Close closes the database.
func (q *Queue) Close() error { return q.db.Close() }

// formatTime is the one time format of queue.db.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTime(s sql.NullString) time.Time {
	if !s.Valid {
		return time.Time{}
	}
	t, _ := time.Parse(time.RFC3339Nano, s.String)
	return t
}

// ErrNotFound is returned for a job id that does not exist.
var ErrNotFound = errors.New("no such job")

// A Job is a session transcript to process.
type Job struct {
	ID         int64     `json:"id"`
	Session    string    `json:"session"`
	Transcript string    `json:"transcript"`
	Cwd        string    `json:"cwd,omitempty"`
	Event      string    `json:"event"`
	Created    time.Time `json:"created"`
	State      string    `json:"state"`
	Attempts   int       `json:"attempts"`
	LeaseUntil time.Time `json:"lease_until,omitzero"`
	NextTry    time.Time `json:"next_try,omitzero"`
	LastError  string    `json:"last_error,omitempty"`
	StartOff   int64     `json:"start_offset"`
	EndOff     int64     `json:"end_offset"`
	TokensIn   int       `json:"tokens_in"`
	TokensOut  int       `json:"tokens_out"`
	Facts      int       `json:"facts"`
	Finished   time.Time `json:"finished,omitzero"`
	// Skipped says why a done job extracted nothing on purpose (a session
	// with too little work, a budget spent); "" when it was not skipped.
	Skipped string `json:"skipped,omitempty"`
	// Extractor is the extractor the job was queued for: --extractor, or
	// $MNEMO_EXTRACTOR where the hook ran; "" for the worker's own.
	Extractor string `json:"extractor,omitempty"`
}

// Enqueue adds a job for a session. When the session already has a job
// waiting (not yet leased), that job is updated instead: one pass over the
// transcript then covers both events, so enqueueing is idempotent.
func (q *Queue) Enqueue(ctx context.Context, j Job) (id int64, err error) {
	if j.Session == "" || j.Transcript == "" {
		return 0, errors.New("queue: a job needs a session and a transcript")
	}
	now := formatTime(q.Now())
	err = q.write(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE jobs SET transcript = ?, cwd = ?, event = ?, extractor = ?
		WHERE id = (SELECT id FROM jobs WHERE session = ? AND state = 'pending' ORDER BY id LIMIT 1)
		RETURNING id`, j.Transcript, j.Cwd, j.Event, j.Extractor, j.Session).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.QueryRowContext(ctx, `INSERT INTO jobs (session, transcript, cwd, event, created, extractor)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, j.Session, j.Transcript, j.Cwd, j.Event, now, j.Extractor).Scan(&id)
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("queue: enqueue: %w", err)
	}
	return id, nil
}

const jobColumns = `id, session, transcript, cwd, event, created, state, attempts, lease_until,
	next_try, last_error, coalesce(start_off, 0), coalesce(end_off, 0), tokens_in, tokens_out, facts, finished, skipped, extractor`

type scanner interface{ Scan(...any) error }

func scanJob(s scanner) (Job, error) {
	var j Job
	var created string
	var lease, next, finished sql.NullString
	err := s.Scan(&j.ID, &j.Session, &j.Transcript, &j.Cwd, &j.Event, &created, &j.State, &j.Attempts,
		&lease, &next, &j.LastError, &j.StartOff, &j.EndOff, &j.TokensIn, &j.TokensOut, &j.Facts, &finished, &j.Skipped, &j.Extractor)
	j.Created = parseTime(sql.NullString{String: created, Valid: true})
	j.LeaseUntil, j.NextTry, j.Finished = parseTime(lease), parseTime(next), parseTime(finished)
	return j, err
}

// List returns jobs, newest first; states filters them (none: all).
func (q *Queue) List(ctx context.Context, states ...string) ([]Job, error) {
	var out []Job
	err := q.read(ctx, func(tx *sql.Tx) (err error) {
		out, err = list(ctx, tx, states)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("queue: list: %w", err)
	}
	return out, nil
}

// list reads the jobs in states (none: all), newest first.
func list(ctx context.Context, tx *sql.Tx, states []string) ([]Job, error) {
	query := `SELECT ` + jobColumns + ` FROM jobs`
	var args []any
	if len(states) > 0 {
		query += ` WHERE state IN (?` + strings.Repeat(",?", len(states)-1) + `)`
		for _, s := range states {
			args = append(args, s)
		}
	}
	rows, err := tx.QueryContext(ctx, query+` ORDER BY id DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// Get returns the job with id, or an error wrapping [ErrNotFound].
func (q *Queue) Get(ctx context.Context, id int64) (Job, error) {
	var j Job
	err := q.read(ctx, func(tx *sql.Tx) (err error) {
		j, err = scanJob(tx.QueryRowContext(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Job{}, fmt.Errorf("queue: job %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Job{}, fmt.Errorf("queue: job %d: %w", id, err)
	}
	return j, nil
}
