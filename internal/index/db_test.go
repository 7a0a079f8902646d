package index

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

func TestOpenRebuildsDamagedFile(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, path string)
		warn    string // in the log; empty for none
	}{
		{"missing", func(*testing.T, string) {}, ""},
		{"not a database", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(strings.Repeat("garbage ", 1000)), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not a database"},
		{"empty file", func(t *testing.T, path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"other schema version", func(t *testing.T, path string) {
			s, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, q := range []string{
				"CREATE TABLE memories (id INTEGER PRIMARY KEY, junk TEXT)",
				"CREATE VIRTUAL TABLE old_fts USING fts5 (x)",
				"PRAGMA user_version = 999",
			} {
				if _, err := s.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
		}, "another schema version"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), FileName)
			tt.prepare(t, path)
			log, buf := logBuffer()
			db, err := Open(ctx, path, log)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer db.Close()
			if tt.warn == "" && buf.Len() > 0 {
				t.Errorf("log = %q, want nothing", buf)
			}
			if tt.warn != "" && !strings.Contains(buf.String(), tt.warn) {
				t.Errorf("log = %q, want a warning with %q", buf, tt.warn)
			}
			// The rebuilt index works.
			dir := t.TempDir()
			writeFile(t, dir, "a.md", memFile("a", "works again", "body"))
			if st, err := db.Sync(ctx, Source{"project", dir}); err != nil || st.Added != 1 {
				t.Errorf("Sync = %+v, %v; want 1 added", st, err)
			}
		})
	}
}

func TestOpenTwiceKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), FileName)
	dir := t.TempDir()
	writeFile(t, dir, "a.md", memFile("a", "kept", "body"))
	for i, want := range []SyncStats{{Added: 1}, {Unchanged: 1}} {
		log, buf := logBuffer()
		db, err := Open(ctx, path, log)
		if err != nil {
			t.Fatal(err)
		}
		st, err := db.Sync(ctx, Source{"project", dir})
		db.Close()
		if err != nil || st.Added != want.Added || st.Unchanged != want.Unchanged {
			t.Errorf("open %d: Sync = %+v, %v; want %+v", i, st, err, want)
		}
		if buf.Len() > 0 {
			t.Errorf("open %d: log = %q, want nothing", i, buf)
		}
	}
}
