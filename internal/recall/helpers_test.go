package recall

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// mem is a memory file for a test vault.
type mem struct {
	name, desc, body string
	extra            string // more header lines
}

func (m mem) file() string {
	typ := "type: project\n"
	if m.extra != "" && containsKey(m.extra, "type:") {
		typ = ""
	}
	return "---\nname: " + m.name + "\ndescription: " + m.desc + "\n" + typ + m.extra + "---\n" + m.body + "\n"
}

func containsKey(s, key string) bool {
	for i := 0; i+len(key) <= len(s); i++ {
		if s[i:i+len(key)] == key && (i == 0 || s[i-1] == '\n') {
			return true
		}
	}
	return false
}

// engine indexes mems as the project vault and returns an engine over them.
func engine(tb testing.TB, cfg Config, mems ...mem) (*Engine, *index.DB) {
	tb.Helper()
	ctx := context.Background()
	dir := tb.TempDir()
	for _, m := range mems {
		if err := os.WriteFile(filepath.Join(dir, m.name+".md"), []byte(m.file()), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	db, err := index.Open(ctx, filepath.Join(tb.TempDir(), index.FileName), nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	st, err := db.Sync(ctx, index.Source{Name: "project", Dir: dir})
	if err != nil {
		tb.Fatal(err)
	}
	if len(st.Problems) > 0 {
		tb.Fatalf("Sync problems: %v", st.Problems)
	}
	return New(db, cfg), db
}

func resultNames(rs []Result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}
