package vault

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

func newMemory(name, desc, body string) *memory.Memory {
	return memory.New(memory.Header{Name: name, Description: desc, Type: memory.TypeProject, Source: "manual"}, body)
}

// TestUpdateRereads: an update applies to the file as it is under the
// lock, so a change another writer made after the caller read the memory
// is kept, and the function sees it.
func TestUpdateRereads(t *testing.T) {
	ctx := context.Background()
	v := mustOpen(t)
	if err := v.Create(ctx, newMemory("port", "The API listens on 8080", "Port 8080.")); err != nil {
		t.Fatal(err)
	}
	stale, err := v.Load("port")
	if err != nil {
		t.Fatal(err)
	}
	// Another process (a second Vault on the same folder and lock) edits the body.
	other, err := Open(v.Dir, v.lockPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Update(ctx, "port", func(m *memory.Memory) error {
		m.Body = "Port 8080, behind the proxy.\n"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := v.Update(ctx, "port", func(m *memory.Memory) error {
		if m.Body != "Port 8080, behind the proxy.\n" {
			t.Errorf("Update saw body %q, want the other writer's", m.Body)
		}
		m.Description = "The API listens on 8080 behind the proxy"
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Body != "Port 8080, behind the proxy.\n" || got.Description != "The API listens on 8080 behind the proxy" {
		t.Errorf("after both updates: %q / %q, want both changes", got.Description, got.Body)
	}
	if stale.Body == got.Body {
		t.Fatal("the test is broken: the stale copy already had the new body")
	}
}

func TestUpdate(t *testing.T) {
	ctx := context.Background()
	v := mustOpen(t)
	if err := v.Create(ctx, newMemory("a", "A fact", "Body.")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(v.Path("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(v.Path("a"))
	tests := []struct {
		name    string
		fn      func(*memory.Memory) error
		wantErr string // "" for none
		written bool
	}{
		{"no change", func(*memory.Memory) error { return ErrNoChange }, "", false},
		{"wrapped no change", func(*memory.Memory) error { return errors.Join(ErrNoChange) }, "", false},
		{"error", func(*memory.Memory) error { return errors.New("refused by fn") }, "refused by fn", false},
		{"rename", func(m *memory.Memory) error { m.Name = "b"; return nil }, "the name cannot change", false},
		{"invalid", func(m *memory.Memory) error { m.Description = ""; return nil }, "description: missing", false},
		{"too large", func(m *memory.Memory) error { m.Body = strings.Repeat("x", memory.MaxFileSize); return nil }, "larger than", false},
		{"same bytes", func(m *memory.Memory) error { m.Body = m.Body + ""; return nil }, "", false},
		{"change", func(m *memory.Memory) error { m.Body = "New body.\n"; return nil }, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := v.Update(ctx, "a", tt.fn)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Update = %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Update = %v, want an error containing %q", err, tt.wantErr)
			}
			after, _ := os.ReadFile(v.Path("a"))
			if written := string(after) != string(before); written != tt.written {
				t.Errorf("file written = %v, want %v", written, tt.written)
			}
			before = after
		})
	}
	if fi, err := os.Stat(v.Path("a")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode after an update = %v (%v), want the file's own 0600", fi.Mode().Perm(), err)
	}
	if _, err := v.Update(ctx, "missing", func(*memory.Memory) error { return nil }); !errors.Is(err, ErrNotFound) {
		t.Errorf("Update(missing) = %v, want ErrNotFound", err)
	}
	if _, err := v.Update(ctx, "../a", func(*memory.Memory) error { return nil }); err == nil {
		t.Error("Update(../a) = nil, want an error")
	}
}

// TestCreateNeverReplaces: a new memory never lands over another, and
// CreateFree finds the next free name.
func TestCreateNeverReplaces(t *testing.T) {
	ctx := context.Background()
	v := mustOpen(t)
	if err := v.Create(ctx, newMemory("db-host", "Staging database host is db-staging.internal", "Staging.")); err != nil {
		t.Fatal(err)
	}
	if err := v.Create(ctx, newMemory("db-host", "Production database host is db-prod.internal", "Production.")); !errors.Is(err, ErrExists) {
		t.Errorf("Create over an existing name = %v, want ErrExists", err)
	}
	for _, want := range []string{"db-host-2", "db-host-3"} {
		m := newMemory("db-host", "Another database host", "Another.")
		got, err := v.CreateFree(ctx, m)
		if err != nil || got != want || m.Name != want {
			t.Errorf("CreateFree = %q, %v (m.Name %q), want %q", got, err, m.Name, want)
		}
	}
	m, err := v.Load("db-host")
	if err != nil || m.Body != "Staging.\n" {
		t.Errorf("db-host after the creates = %v, %v, want the staging fact untouched", m, err)
	}
	big := newMemory("big", "A memory too large to read back", strings.Repeat("word ", memory.MaxFileSize/5+1))
	if err := v.Create(ctx, big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Create of a memory over the read limit = %v, want a refusal", err)
	}
	if _, err := os.Stat(v.Path("big")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the oversized memory was written")
	}
	idx, _ := os.ReadFile(v.Dir + "/" + IndexFile)
	if n := strings.Count(string(idx), "](db-host"); n != 3 {
		t.Errorf("MEMORY.md lists %d db-host memories, want 3:\n%s", n, idx)
	}
}

func TestFirstFree(t *testing.T) {
	long := strings.Repeat("a", memory.MaxNameLen)
	tests := []struct {
		name  string
		taken []string
		want  string
	}{
		{"x", nil, "x"},
		{"x", []string{"x"}, "x-2"},
		{"x", []string{"x", "x-2", "x-3"}, "x-4"},
		{long, []string{long}, long[:memory.MaxNameLen-2] + "-2"},
		{"ab-", []string{"ab-"}, "ab-2"},
	}
	for _, tt := range tests {
		got := FirstFree(tt.name, func(n string) bool {
			for _, x := range tt.taken {
				if x == n {
					return true
				}
			}
			return false
		})
		if got != tt.want || !memory.ValidName(got) {
			t.Errorf("FirstFree(%q, %v) = %q, want %q", tt.name, tt.taken, got, tt.want)
		}
	}
}
