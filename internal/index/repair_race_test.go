package index

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// damages are the ways an index.db is found damaged: each prepares the
// file at path, which held an index of the memories of dir.
var damages = []struct {
	name   string
	damage func(t *testing.T, path string)
}{
	{"not a database", func(t *testing.T, path string) {
		removeIndex(t, path)
		if err := os.WriteFile(path, []byte(strings.Repeat("garbage ", 4096)), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{"pages overwritten", func(t *testing.T, path string) {
		// The header (page 1, with the schema) is whole, so the file
		// opens; the pages after it, where the rows are, are not.
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteAt([]byte(strings.Repeat("\xa5", int(fi.Size())-4096)), 4096); err != nil {
			t.Fatal(err)
		}
	}},
	// The schema reads, so the file opens; a table a search or a sync
	// reads does not.
	{"word table overwritten", func(t *testing.T, path string) {
		overwriteRoots(t, path, "memories_fts_data", "df")
	}},
	{"memories table overwritten", func(t *testing.T, path string) {
		overwriteRoots(t, path, "memories")
	}},
	{"history table overwritten", func(t *testing.T, path string) {
		overwriteRoots(t, filepath.Join(filepath.Dir(path), HistoryFileName), "recall_stats")
	}},
	{"truncated", func(t *testing.T, path string) {
		if err := os.Truncate(path, 4096+512); err != nil {
			t.Fatal(err)
		}
	}},
}

// overwriteRoots overwrites the root page of each named table of the
// database at path.
func overwriteRoots(t *testing.T, path string, tables ...string) {
	t.Helper()
	s, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	if err := s.QueryRow("PRAGMA page_size").Scan(&size); err != nil {
		t.Fatal(err)
	}
	var roots []int64
	for _, name := range tables {
		var root int64
		if err := s.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", name).Scan(&root); err != nil {
			t.Fatalf("root page of %s: %v", name, err)
		}
		roots = append(roots, root)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	removeIndex(t, path)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, root := range roots {
		if _, err := f.WriteAt([]byte(strings.Repeat("\xa5", int(size))), (root-1)*size); err != nil {
			t.Fatal(err)
		}
	}
}

// removeIndex removes what SQLite keeps beside index.db.
func removeIndex(t *testing.T, path string) {
	t.Helper()
	for _, s := range []string{"-wal", "-shm"} {
		if err := os.Remove(path + s); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}

// damagedIndex writes n memories into a folder, builds their index in a
// state folder, damages it, and returns the index's path and the folder.
func damagedIndex(t *testing.T, n int, damage func(*testing.T, string)) (path, dir string) {
	t.Helper()
	ctx := context.Background()
	dir = t.TempDir()
	for i := range n {
		name := fmt.Sprintf("m%03d", i)
		writeFile(t, dir, name+".md", memFile(name, fmt.Sprintf("Service %d uses the postgres driver", i), strings.Repeat("A body with some words. ", 40)))
	}
	path = filepath.Join(t.TempDir(), FileName)
	db, err := Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	var busy, logged, done int
	if err := db.sql.QueryRow("PRAGMA main.wal_checkpoint(TRUNCATE)").Scan(&busy, &logged, &done); err != nil || busy != 0 {
		t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	removeIndex(t, path) // checkpointed: the rows are in the file
	damage(t, path)
	return path, dir
}

// answer is what a hook or the MCP server does with the index: open it,
// bring it up to date, search it, read the memories most recalled.
func answer(ctx context.Context, path, dir string, log *slog.Logger) (int, error) {
	db, err := Open(ctx, path, log)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	if _, err := db.Sync(ctx, Source{Name: "project", Dir: dir}); err != nil {
		return 0, err
	}
	res, err := db.Search(ctx, WordQuery{Terms: []string{"postgres"}, Weights: defaultWeights, Limit: 100})
	if err != nil {
		return 0, err
	}
	if _, err := db.Top(ctx, 5); err != nil { // reads the recall statistics, in history.db
		return 0, err
	}
	return len(res.Hits), nil
}

// TestDamagedIndexRace has several handles (a hook, the worker, the MCP
// server: each its own process, its own connections) find one damaged
// index.db at the same moment. One rebuilds it; the others wait for the
// rebuild or use the rebuilt file: none fails (SQLITE_BUSY, disk I/O
// error, "database disk image is malformed"), and every one answers
// from a whole index.
func TestDamagedIndexRace(t *testing.T) {
	const memories, handles = 90, 8
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			path, dir := damagedIndex(t, memories, d.damage)
			ctx := context.Background()
			start := make(chan struct{})
			var wg sync.WaitGroup
			errs := make([]error, handles)
			hits := make([]int, handles)
			logs := make([]*bytes.Buffer, handles)
			for i := range handles {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					var log *slog.Logger
					log, logs[i] = logBuffer()
					hits[i], errs[i] = answer(ctx, path, dir, log)
				}()
			}
			close(start)
			wg.Wait()
			for i := range handles {
				if errs[i] != nil || hits[i] != memories {
					t.Errorf("handle %d: open, sync and search = %d hits, %v; want %d, no error (log: %s)", i, hits[i], errs[i], memories, logs[i])
				}
			}
		})
	}
}

// answerEnv names, for the test binary run as a child, the index and the
// folder to answer from ([answer]).
const answerEnv = "MNEMO_TEST_ANSWER"

// TestAnswerChild is not a test: it is what each child process of
// [TestDamagedIndexRaceProcesses] runs.
func TestAnswerChild(t *testing.T) {
	spec := os.Getenv(answerEnv)
	if spec == "" {
		t.Skip("run by TestDamagedIndexRaceProcesses")
	}
	path, dir, _ := strings.Cut(spec, string(os.PathListSeparator))
	n, err := answer(context.Background(), path, dir, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("hits:", n)
}

// TestDamagedIndexRaceProcesses is [TestDamagedIndexRace] with processes:
// SQLite's locks between processes are not those between the connections
// of one process.
func TestDamagedIndexRaceProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const memories, procs = 90, 8
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			path, dir := damagedIndex(t, memories, d.damage)
			answerInProcesses(t, exe, path, dir, procs, memories)
		})
	}
}

// answerInProcesses runs procs child processes of the test binary exe
// ([TestAnswerChild]) at once on the index at path, and checks that each
// answers with every one of the memories of dir.
func answerInProcesses(t *testing.T, exe, path, dir string, procs, memories int) {
	t.Helper()
	cmds := make([]*exec.Cmd, procs)
	outs, logs := make([]strings.Builder, procs), make([]strings.Builder, procs)
	for i := range procs {
		c := exec.Command(exe, "-test.run=^TestAnswerChild$")
		c.Env = append(os.Environ(), answerEnv+"="+path+string(os.PathListSeparator)+dir)
		c.Stdout, c.Stderr = &outs[i], &logs[i]
		cmds[i] = c
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	want := "hits: " + strconv.Itoa(memories) + "\n"
	for i, c := range cmds {
		err := c.Wait()
		if got := outs[i].String(); err != nil || !strings.HasPrefix(got, want) {
			t.Errorf("process %d: %v, printed %q; want %q (log: %s)", i, err, got, want, &logs[i])
		}
	}
}
