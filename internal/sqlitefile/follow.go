package sqlitefile

import (
	"context"
	"database/sql/driver"
	"os"
)

// A conn is what a connection of modernc.org/sqlite offers database/sql,
// and so what [Follow] must pass on.
type conn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// Follow opens a connection with open to the databases at paths (a main
// database and those it attaches) that follows them: once a path holds
// another file than the one the connection opened (a repair or a rebuild
// renamed a new one over it), the connection says it is bad before its
// next statement ([driver.SessionResetter]) and when a write transaction
// begins on it (checked after BEGIN, so that no later write goes to the
// old file), and database/sql opens another, to the files now at the
// paths. In WAL mode SQLite goes on reading and writing the file it
// opened, renamed over or not, without an error: the writes would go to
// a file nobody reads, and the reads would never see another process's.
//
// A path that holds no file is followed to none: the connection keeps
// the file it has (the state folder removed while a command runs).
// Following costs one stat of each path a statement.
func Follow(open func() (driver.Conn, error), paths ...string) (driver.Conn, error) {
	var c driver.Conn
	var opened []os.FileInfo
	for range 3 {
		before := stats(paths)
		var err error
		if c, err = open(); err != nil {
			return nil, err
		}
		if opened = stats(paths); same(before, opened) {
			break
		}
		// Replaced as it opened: which file it holds cannot be told.
		c.Close()
		c, opened = nil, nil
	}
	if c == nil {
		return nil, driver.ErrBadConn // database/sql tries again
	}
	fc, ok := c.(conn)
	if !ok {
		return c, nil
	}
	return &following{conn: fc, paths: paths, opened: opened}, nil
}

// stats returns what is at each path; nil where there is nothing.
func stats(paths []string) []os.FileInfo {
	out := make([]os.FileInfo, len(paths))
	for i, p := range paths {
		out[i], _ = os.Stat(p)
	}
	return out
}

// same reports whether a and b name the same files, where both name one.
func same(a, b []os.FileInfo) bool {
	for i := range a {
		if a[i] != nil && b[i] != nil && !os.SameFile(a[i], b[i]) {
			return false
		}
	}
	return true
}

// A following connection is one [Follow] opened.
type following struct {
	conn
	paths  []string
	opened []os.FileInfo // what was at each path when it opened; nil for nothing
}

// replaced reports whether a path holds another file than the one the
// connection opened.
func (c *following) replaced() bool { return !same(c.opened, stats(c.paths)) }

func (c *following) ResetSession(ctx context.Context) error {
	if c.replaced() {
		return driver.ErrBadConn
	}
	return c.conn.ResetSession(ctx)
}

func (c *following) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	tx, err := c.conn.BeginTx(ctx, opts)
	if err != nil || opts.ReadOnly || !c.replaced() {
		return tx, err
	}
	tx.Rollback()
	return nil, driver.ErrBadConn
}
