package sqlitefile

import "context"

// Tries bounds how often [Retried] runs its function: once, then once
// after each repair. One repair is the rule; more are repairs in a row
// (the file damaged or replaced again meanwhile).
const Tries = 3

// Retried runs f, and again each time healed reports that it mended what
// f's error said was wrong with a database: the file was damaged and is
// repaired, or another process put a new file at its path, and the
// connections that held the old one are dropped, so that f, run again,
// opens the file now at the path. It runs f [Tries] times at most, and
// not again once ctx is done.
//
// It is the one retry after a repair of every database mnemo owns; each
// owner's healed knows what its errors mean and how its file is repaired
// (index.db rebuilt from the memory files, history.db and queue.db set
// aside and made anew, queue.db's jobs copied), under [LockRepair].
func Retried[T any](ctx context.Context, healed func(context.Context, error) bool, f func() (T, error)) (T, error) {
	v, err := f()
	for try := 1; err != nil && try < Tries && ctx.Err() == nil && healed(ctx, err); try++ {
		v, err = f()
	}
	return v, err
}

// Retry is [Retried] of a function that returns only an error.
func Retry(ctx context.Context, healed func(context.Context, error) bool, f func() error) error {
	_, err := Retried(ctx, healed, func() (struct{}, error) { return struct{}{}, f() })
	return err
}
