package index

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// mustOpen opens an index in a temporary folder and closes it with the test.
func mustOpen(tb testing.TB) *DB {
	tb.Helper()
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), FileName), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// logBuffer returns a logger writing into the returned buffer.
func logBuffer() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, nil)), &buf
}

// memFile renders a minimal memory file.
func memFile(name, desc, body string, extra ...string) string {
	s := "---\nname: " + name + "\ndescription: " + desc + "\ntype: project\n"
	for _, e := range extra {
		s += e + "\n"
	}
	return s + "---\n" + body + "\n"
}

// writeFile writes a file and moves its mtime forward, so a rewrite within
// the file system's time resolution still looks changed.
func writeFile(tb testing.TB, dir, name, content string) {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	bump := time.Now().Add(time.Duration(len(content)) * time.Millisecond)
	if err := os.Chtimes(path, bump, bump); err != nil {
		tb.Fatal(err)
	}
}

// names returns the names of the docs of hits, in order.
func names(tb testing.TB, db *DB, hits []Hit) []string {
	tb.Helper()
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	docs, err := db.Docs(context.Background(), ids)
	if err != nil {
		tb.Fatal(err)
	}
	byID := make(map[int64]string)
	for _, d := range docs {
		byID[d.ID] = d.Name
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = byID[h.ID]
	}
	return out
}

func timeAgo() time.Time { return time.Now().Add(-time.Hour) }
