package vault

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

func mustOpen(t *testing.T) *Vault {
	t.Helper()
	dir := t.TempDir()
	if _, err := Create(dir); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir, filepath.Join(t.TempDir(), "vault.lock"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func write(t *testing.T, v *Vault, file, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(v.Dir, file), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestListSkipsWhatItCannotRead(t *testing.T) {
	v := mustOpen(t)
	write(t, v, "good.md", "---\nname: good\ndescription: d\ntype: user\n---\nbody\n")
	write(t, v, "bad.md", "---\nname: [\n---\n")
	write(t, v, "noheader.md", "just text\n")
	write(t, v, ".hidden.md", "---\nname: hidden\n---\n")
	write(t, v, ".good.md.123.tmp", "torn")
	write(t, v, "notes.txt", "not a memory")
	if err := os.Mkdir(filepath.Join(v.Dir, "sub.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, problems := v.List()
	if len(entries) != 1 || entries[0].Name != "good" {
		t.Errorf("List entries = %v, want just good", entries)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{"bad.md:2: invalid YAML", "noheader.md:1: no header", "sub.md: not a regular file"}
	if len(got) != len(want) {
		t.Fatalf("List problems = %q, want %d like %q", got, len(want), want)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("problem %d = %q, want it to contain %q", i, got[i], want[i])
		}
	}
}

func TestSymlinks(t *testing.T) {
	v := mustOpen(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("---\nname: escape\ndescription: d\ntype: user\n---\nsecret\n"), 0o644)
	write(t, v, "real.md", "---\nname: real\ndescription: d\ntype: user\n---\nbody\n")
	if err := os.Symlink(outside, filepath.Join(v.Dir, "escape.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.md", filepath.Join(v.Dir, "alias.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Load("escape"); !errors.Is(err, ErrOutside) {
		t.Errorf("Load(escape) = %v, want ErrOutside", err)
	}
	if _, err := v.Load("alias"); err != nil {
		t.Errorf("Load(alias), a link inside the vault = %v, want nil", err)
	}
	// Writing through a symlink is refused, whatever it points at.
	m := memory.New(memory.Header{Name: "escape", Description: "d", Type: memory.TypeUser}, "overwrite")
	if _, err := v.Update(context.Background(), "escape", func(*memory.Memory) error { return nil }); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Update through a symlink = %v, want a refusal", err)
	}
	if err := v.Create(context.Background(), m); !errors.Is(err, ErrExists) {
		t.Errorf("Create over a symlink = %v, want ErrExists", err)
	}
	if data, _ := os.ReadFile(outside); !strings.Contains(string(data), "secret") {
		t.Errorf("the file outside the vault was changed: %q", data)
	}
}

func TestWriteAndDelete(t *testing.T) {
	v := mustOpen(t)
	ctx := context.Background()
	m := memory.New(memory.Header{Name: "a", Description: "A fact", Type: memory.TypeProject}, "body")
	if err := v.Create(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := v.Create(ctx, m); !errors.Is(err, ErrExists) {
		t.Errorf("second Create = %v, want ErrExists", err)
	}
	bad := memory.New(memory.Header{Name: "b", Type: memory.TypeProject}, "no description")
	if err := v.Create(ctx, bad); err == nil || !strings.Contains(err.Error(), "description: missing") {
		t.Errorf("Create of an invalid memory = %v, want the validation error", err)
	}
	if _, err := os.Stat(v.Path("b")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an invalid memory was written")
	}
	out := Removal{Vault: "project", Reason: "test", Source: "test", At: time.Now()}
	if _, err := v.MoveOut(ctx, out, "a", "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("MoveOut with a missing name = %v, want ErrNotFound", err)
	}
	if _, err := os.Stat(v.Path("a")); err != nil {
		t.Errorf("MoveOut removed a although another name was missing")
	}
	if _, err := v.MoveOut(ctx, out, "a"); err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(v.Dir, IndexFile))
	if strings.Contains(string(index), "[a]") {
		t.Errorf("MEMORY.md still lists a:\n%s", index)
	}
}

func TestCreateIdempotent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "v")
	if created, err := Create(dir); err != nil || !created {
		t.Fatalf("Create = %v, %v; want true, nil", created, err)
	}
	os.WriteFile(filepath.Join(dir, IndexFile), []byte("mine\n"), 0o644)
	if created, err := Create(dir); err != nil || created {
		t.Fatalf("second Create = %v, %v; want false, nil", created, err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, IndexFile)); string(data) != "mine\n" {
		t.Errorf("Create changed an existing MEMORY.md: %q", data)
	}
}

func TestLockSerializes(t *testing.T) {
	v := mustOpen(t)
	ctx := context.Background()
	unlock, err := v.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(v.Dir, v.lockPath) // a second handle: as another process would
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := other.Lock(cctx); err == nil {
		t.Errorf("a second Lock succeeded while the first was held")
	}
	unlock()
	unlock2, err := other.Lock(ctx)
	if err != nil {
		t.Fatalf("Lock after unlock = %v", err)
	}
	unlock2()
}

func TestLinkGraph(t *testing.T) {
	mk := func(name, body string) Entry {
		return Entry{Name: name, Memory: memory.New(memory.Header{Name: name}, body)}
	}
	g := LinkGraph([]Entry{mk("a", "[[b]] [[c]]"), mk("b", "[[a]] [[zz]]"), mk("c", "[[zz]]")})
	if got := strings.Join(g.Backlinks["a"], ","); got != "b" {
		t.Errorf("Backlinks[a] = %q, want b", got)
	}
	if got := strings.Join(g.Dangling["zz"], ","); got != "b,c" {
		t.Errorf("Dangling[zz] = %q, want b,c", got)
	}
	if _, ok := g.Dangling["b"]; ok {
		t.Errorf("b exists but is listed as dangling")
	}
}

// TestReadFileSwappedForFIFO: a file replaced by a FIFO between the
// listing's Lstat and the read is refused, not waited on (the read would
// block until a writer came, and a hook or the MCP server with it).
func TestReadFileSwappedForFIFO(t *testing.T) {
	v := mustOpen(t)
	path := filepath.Join(v.Dir, "a.md")
	if err := os.WriteFile(path, []byte("---\nname: a\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := v.readFile("a.md", fi, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("read a FIFO as a memory file")
		}
	case <-time.After(5 * time.Second):
		f, _ := os.OpenFile(path, os.O_WRONLY, 0) // let the read return
		f.Close()
		t.Fatal("the read of a file swapped for a FIFO blocked")
	}
}
