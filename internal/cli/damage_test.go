package cli

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// damageIndex is the script command "damageindex TABLE...": in every
// index.db under $MNEMO_HOME/state, the root page of each named table is
// overwritten, or in the history.db beside it for a table named
// history.TABLE. The schema still reads, so the file opens; a statement
// that reads one of the tables finds it malformed.
func damageIndex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: damageindex TABLE...")
	}
	paths, err := filepath.Glob(filepath.Join(ts.Getenv("MNEMO_HOME"), "state", "*", index.FileName))
	ts.Check(err)
	if len(paths) == 0 {
		ts.Fatalf("no index under $MNEMO_HOME/state")
	}
	var main, history []string
	for _, a := range args {
		if t, ok := strings.CutPrefix(a, "history."); ok {
			history = append(history, t)
		} else {
			main = append(main, a)
		}
	}
	for _, p := range paths {
		if len(main) > 0 {
			overwriteRoots(ts, p, main)
		}
		if len(history) > 0 {
			overwriteRoots(ts, filepath.Join(filepath.Dir(p), index.HistoryFileName), history)
		}
	}
}

func overwriteRoots(ts *testscript.TestScript, path string, tables []string) {
	s, err := sql.Open("sqlite", path)
	ts.Check(err)
	_, err = s.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	ts.Check(err)
	var size int64
	ts.Check(s.QueryRow("PRAGMA page_size").Scan(&size))
	roots := make([]int64, len(tables))
	for i, name := range tables {
		ts.Check(s.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", name).Scan(&roots[i]))
	}
	ts.Check(s.Close())
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	ts.Check(err)
	defer f.Close()
	for _, root := range roots {
		_, err := f.WriteAt([]byte(strings.Repeat("\xa5", int(size))), (root-1)*size)
		ts.Check(err)
	}
}

// staleIndex is the script command "staleindex NAME": the index's row of
// the memory NAME holds another text than its file, as an index left
// behind its files would (a write lost, a defect): what doctor --deep
// looks for and reindex repairs. A sync does not see it: the file's stamp
// is the one stored.
func staleIndex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: staleindex NAME")
	}
	paths, err := filepath.Glob(filepath.Join(ts.Getenv("MNEMO_HOME"), "state", "*", index.FileName))
	ts.Check(err)
	if len(paths) == 0 {
		ts.Fatalf("no index under $MNEMO_HOME/state")
	}
	for _, p := range paths {
		s, err := sql.Open("sqlite", p)
		ts.Check(err)
		_, err = s.Exec("UPDATE memories SET body = 'An older text.' WHERE name = ?", args[0])
		ts.Check(errors.Join(err, s.Close()))
	}
}
