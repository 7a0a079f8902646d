package queue

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// TestWriteRetriesBusy: a write that SQLite refused as busy without
// waiting is made again, and lands; one refused every time gives up after
// busyTries more, with SQLite's error.
func TestWriteRetriesBusy(t *testing.T) {
	ctx := context.Background()
	q, _ := mustOpen(t)
	// A second connection that does not wait for a lock: while the
	// queue's transaction holds the write lock, its BEGIN IMMEDIATE is
	// refused at once, with the error a write can meet.
	other, err := sql.Open("sqlite", sqlitefile.URI(q.path, "mode=rw&_pragma=busy_timeout(0)&_txlock=immediate"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	busy := func() error {
		tx, err := other.BeginTx(ctx, nil)
		if err == nil {
			tx.Rollback()
			return fmt.Errorf("the second connection took the write lock the queue holds")
		}
		return err
	}
	for _, tt := range []struct {
		name      string
		refusals  int
		wantCalls int
		wantErr   bool
	}{
		{"refused once", 1, 2, false},
		{"refused as often as it is made again", busyTries, busyTries + 1, false},
		{"refused every time", 100, busyTries + 1, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			err := q.write(ctx, func(tx *sql.Tx) error {
				calls++
				if calls <= tt.refusals {
					return busy()
				}
				_, err := tx.ExecContext(ctx, "PRAGMA user_version")
				return err
			})
			if calls != tt.wantCalls || (err != nil) != tt.wantErr || err != nil && !sqlitefile.IsBusy(err) {
				t.Errorf("write: %d calls, %v; want %d calls, error %v (busy)", calls, err, tt.wantCalls, tt.wantErr)
			}
		})
	}
}
