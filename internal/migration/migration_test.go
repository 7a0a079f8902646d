package migration

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	_ "modernc.org/sqlite"
)

func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "x.db")+"?_pragma=journal_mode(wal)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func recorded(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM migrations ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// TestApply: files apply once each, in name order, recorded by their
// path; a file added later applies on the next Apply; a failing file
// leaves nothing of itself and stops the ones after it.
func TestApply(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	files := fstest.MapFS{
		"m/002_b.sql": {Data: []byte(`INSERT INTO a (x) VALUES (2);`)},
		"m/001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER); INSERT INTO a (x) VALUES (1);`)},
		"m/notes.txt": {Data: []byte(`not a migration`)},
	}
	for range 2 {
		if err := Apply(ctx, db, files, "m"); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := recorded(t, db), []string{"m/001_a.sql", "m/002_b.sql"}; !slices.Equal(got, want) {
		t.Errorf("recorded = %v, want %v", got, want)
	}
	var sum int
	if err := db.QueryRow(`SELECT sum(x) FROM a`).Scan(&sum); err != nil || sum != 3 {
		t.Errorf("sum(x) = %d, %v; want 3 (each file once)", sum, err)
	}
	names, _ := Names(files, "m")
	if !Applied(ctx, db, "migrations", names) {
		t.Errorf("Applied(%v) = false after Apply", names)
	}

	files["m/003_bad.sql"] = &fstest.MapFile{Data: []byte(`INSERT INTO a (x) VALUES (30); INSERT INTO nope VALUES (1);`)}
	files["m/004_c.sql"] = &fstest.MapFile{Data: []byte(`INSERT INTO a (x) VALUES (4);`)}
	names, _ = Names(files, "m")
	if Applied(ctx, db, "migrations", names) {
		t.Errorf("Applied(%v) = true with two files new", names)
	}
	err := Apply(ctx, db, files, "m")
	if err == nil || !strings.Contains(err.Error(), "migrate m/003_bad.sql: ") {
		t.Errorf("Apply with a bad file = %v, want an error naming m/003_bad.sql", err)
	}
	if err := db.QueryRow(`SELECT sum(x) FROM a`).Scan(&sum); err != nil || sum != 3 {
		t.Errorf("sum(x) after the failed file = %d, %v; want 3 (nothing of it kept, nothing after it run)", sum, err)
	}
}

// TestAppliedNoTable: a database without a migrations table has applied nothing.
func TestAppliedNoTable(t *testing.T) {
	if Applied(context.Background(), openDB(t), "migrations", []string{"m/001_a.sql"}) {
		t.Error("Applied on an empty database = true")
	}
}

// pausedFS is files, where opening the file named pause signals reached and
// then waits for resume: Apply is then between two of its files.
type pausedFS struct {
	files           fstest.MapFS
	pause           string
	reached, resume chan struct{}
}

func (p pausedFS) Open(name string) (fs.File, error) {
	if name == p.pause {
		close(p.reached)
		<-p.resume
	}
	return p.files.Open(name)
}

// TestApplySeenAtOnce: a process that opens the file while another
// applies its migrations sees none of their tables or all of them, never
// some (it would take the schema as made and meet "no such table"), in
// WAL mode (queue.db) and with a rollback journal (history.db).
func TestApplySeenAtOnce(t *testing.T) {
	for _, mode := range []string{"wal", "truncate"} {
		t.Run(mode, func(t *testing.T) {
			ctx := context.Background()
			uri := "file:" + filepath.Join(t.TempDir(), "x.db") + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(" + mode + ")"
			db, err := sql.Open("sqlite", uri+"&_txlock=immediate")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			files := pausedFS{
				files: fstest.MapFS{
					"m/001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER);`)},
					"m/002_b.sql": {Data: []byte(`CREATE TABLE b (y INTEGER);`)},
				},
				pause: "m/002_b.sql", reached: make(chan struct{}), resume: make(chan struct{}),
			}
			done := make(chan error, 1)
			go func() { done <- Apply(ctx, db, files, "m") }()
			<-files.reached
			other, err := sql.Open("sqlite", uri)
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			rows, readErr := other.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
			for readErr == nil && rows.Next() {
				var name string
				readErr = rows.Scan(&name)
				seen = append(seen, name)
			}
			if rows != nil {
				rows.Close()
			}
			other.Close()
			close(files.resume) // Apply goes on before any Fatal
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if readErr != nil {
				t.Fatalf("read the schema meanwhile: %v", readErr)
			}
			if len(seen) != 0 && !slices.Equal(seen, []string{"a", "b", "migrations"}) {
				t.Errorf("tables seen while Apply ran = %v, want none or all", seen)
			}
		})
	}
}
