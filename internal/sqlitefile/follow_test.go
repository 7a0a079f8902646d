package sqlitefile

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"path/filepath"
	"testing"

	"modernc.org/sqlite"
)

// followConnector opens connections to the database at path through Follow.
type followConnector struct {
	drv  *sqlite.Driver
	path string
}

func (c followConnector) Connect(context.Context) (driver.Conn, error) {
	return Follow(func() (driver.Conn, error) { return c.drv.Open(URI(c.path, "_pragma=journal_mode(wal)")) }, c.path)
}

func (c followConnector) Driver() driver.Driver { return c.drv }

// makeDB makes a database at path whose table t holds the one row v,
// closed after (its WAL checkpointed).
func makeDB(t *testing.T, path, v string) {
	t.Helper()
	db, err := sql.Open("sqlite", URI(path, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES (?)", v); err != nil {
		t.Fatal(err)
	}
}

// TestFollow: a pool of following connections opened to one file reads
// and writes the file at the path after another is renamed over it, and
// keeps its own when the path is left empty.
func TestFollow(t *testing.T) {
	tests := []struct {
		name    string
		replace func(t *testing.T, path string) // what another process does
		want    string                          // what a read then finds
	}{
		{"renamed over", func(t *testing.T, path string) {
			makeDB(t, path+".new", "new")
			if err := Replace(path, path+".new"); err != nil {
				t.Fatal(err)
			}
		}, "new"},
		{"removed", func(t *testing.T, path string) {
			if err := Remove(path); err != nil {
				t.Fatal(err)
			}
		}, "old"},
		{"left alone", func(*testing.T, string) {}, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "x.db")
			makeDB(t, path, "old")
			db := sql.OpenDB(followConnector{drv: &sqlite.Driver{}, path: path})
			defer db.Close()
			var v string
			if err := db.QueryRowContext(ctx, "SELECT v FROM t").Scan(&v); err != nil || v != "old" {
				t.Fatalf("read before = %q, %v; want old", v, err)
			}
			tt.replace(t, path)
			if err := db.QueryRowContext(ctx, "SELECT v FROM t").Scan(&v); err != nil || v != tt.want {
				t.Errorf("read after = %q, %v; want %s", v, err, tt.want)
			}
			if _, err := db.ExecContext(ctx, "UPDATE t SET v = 'written'"); err != nil {
				t.Fatalf("write after: %v", err)
			}
			if tt.name == "removed" {
				return // the write went to the file the connection holds, which is gone
			}
			other, err := sql.Open("sqlite", URI(path, ""))
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			if err := other.QueryRowContext(ctx, "SELECT v FROM t").Scan(&v); err != nil || v != "written" {
				t.Errorf("the file at the path holds %q, %v; want the write", v, err)
			}
		})
	}
}
