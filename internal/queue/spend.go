package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Spent returns the tokens the extractor spent on day (2006-01-02). With
// [Queue.AddSpent] it keeps the daily budget across processes.
func (q *Queue) Spent(ctx context.Context, day string) (int, error) {
	var n int
	err := q.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT tokens FROM spend WHERE day = ?`, day).Scan(&n)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("queue: spent: %w", err)
	}
	return n, nil
}

// AddSpent adds tokens to day's spend.
func (q *Queue) AddSpent(ctx context.Context, day string, tokens int) error {
	err := q.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO spend (day, tokens) VALUES (?, ?)
		ON CONFLICT (day) DO UPDATE SET tokens = tokens + excluded.tokens`, day, tokens)
		return err
	})
	if err != nil {
		return fmt.Errorf("queue: add spent: %w", err)
	}
	return nil
}
