package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestMain lets the test binary act as a writer process for the
// cross-process tests: with MNEMO_TEST_WRITER set it writes and exits.
func TestMain(m *testing.M) {
	if spec := os.Getenv("MNEMO_TEST_WRITER"); spec != "" {
		if err := writer(spec); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// writer runs "dir lock id n": it writes n memories named w<id>-<i> and
// deletes every other one, each through the vault's locked operations. With
// n < 0 it writes forever (until killed).
func writer(spec string) error {
	var dir, lock string
	var id, n int
	if _, err := fmt.Sscan(spec, &dir, &lock, &id, &n); err != nil {
		return err
	}
	v, err := Open(dir, lock)
	if err != nil {
		return err
	}
	ctx := context.Background()
	for i := 0; n < 0 || i < n; i++ {
		name := fmt.Sprintf("w%d-%d", id, i)
		body := strings.Repeat(fmt.Sprintf("writer %d memory %d. ", id, i), 50) + "\n"
		m := memory.New(memory.Header{Name: name, Description: "Written by writer " + strconv.Itoa(id), Type: memory.TypeProject, Source: "manual"}, body)
		err := v.Create(ctx, m)
		if errors.Is(err, ErrExists) { // a writer killed and run again
			_, err = v.Update(ctx, name, func(old *memory.Memory) error {
				old.Body = body
				return nil
			})
		}
		if err != nil {
			return err
		}
		if i%2 == 1 {
			if _, err := v.MoveOut(ctx, Removal{Vault: "project", Reason: "test", Source: "test", At: time.Now()}, fmt.Sprintf("w%d-%d", id, i-1)); err != nil {
				return err
			}
		}
	}
	return nil
}

func startWriter(t *testing.T, dir, lock string, id, n int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("MNEMO_TEST_WRITER=%s %s %d %d", dir, lock, id, n))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// TestConcurrentWriters: 8 processes each write 50 memories and delete
// half of them in one vault. Afterwards every file parses, none is torn,
// and MEMORY.md lists exactly the files present (200 of them: past what
// it lists, so its overflow line is counted too). 8 writers contend for
// the lock from their first write; 200 each took 170 s under -race at
// load 10 (each write reads the vault again) and checked nothing more.
func TestConcurrentWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 8 processes")
	}
	dir, lock := t.TempDir(), filepath.Join(t.TempDir(), "vault.lock")
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	const procs, n = 8, 50
	var cmds []*exec.Cmd
	for id := range procs {
		cmds = append(cmds, startWriter(t, dir, lock, id, n))
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	v, err := Open(dir, lock)
	if err != nil {
		t.Fatal(err)
	}
	entries := checkVault(t, v)
	if len(entries) != procs*n/2 {
		t.Errorf("vault holds %d memories, want %d", len(entries), procs*n/2)
	}
}

// TestKilledWriter kills writers in the middle of their writes: no memory
// file is ever torn or half-written, and the next lock sweeps the temp files.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir, lock := t.TempDir(), filepath.Join(t.TempDir(), "vault.lock")
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	for round := range 6 {
		c := startWriter(t, dir, lock, round, -1)
		time.Sleep(time.Duration(30+round*17) * time.Millisecond) // let it get into a write
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
	}
	v, err := Open(dir, lock)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := v.Lock(context.Background()) // sweeps what the killed writers left
	if err != nil {
		t.Fatal(err)
	}
	if err := v.ReindexLocked(); err != nil {
		t.Fatal(err)
	}
	unlock()
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if atomicfile.IsTemp(de.Name()) {
			t.Errorf("temp file %s survived the sweep", de.Name())
		}
	}
	checkVault(t, v)
}

// checkVault asserts that every memory parses with a whole body and that
// MEMORY.md lists exactly the memory files present.
func checkVault(t *testing.T, v *Vault) []Entry {
	t.Helper()
	entries, problems := v.List()
	for _, p := range problems {
		t.Errorf("unreadable memory: %v", p)
	}
	for _, e := range entries {
		if err := e.Memory.Validate(e.Name + ".md"); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		if !strings.HasSuffix(e.Memory.Body, ". \n") || len(e.Memory.Body) < 500 {
			t.Errorf("%s: torn body %q", e.Name, e.Memory.Body)
		}
	}
	index, err := os.ReadFile(filepath.Join(v.Dir, IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	more := 0
	for line := range strings.Lines(string(index)) {
		if m := entryRE.FindStringSubmatch(line); m != nil {
			listed[m[1]] = true
		}
		if overflowRE.MatchString(line) {
			fmt.Sscanf(line, "- … and %d more", &more)
		}
	}
	missing := 0
	for _, e := range entries {
		if !listed[e.Name] {
			missing++
		}
		delete(listed, e.Name)
	}
	for name := range listed {
		t.Errorf("MEMORY.md lists %s, which has no file", name)
	}
	if missing != more {
		t.Errorf("MEMORY.md leaves out %d memories but its overflow line counts %d", missing, more)
	}
	return entries
}
