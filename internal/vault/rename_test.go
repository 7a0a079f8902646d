package vault

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestRename renames a memory: the new file has the new name, the links
// that pointed at the old name point at the new one (in other memories
// and in its own body), MEMORY.md lists the new name, and a refused
// rename changes nothing.
func TestRename(t *testing.T) {
	tests := []struct {
		name, to string
		wantErr  error // nil: renamed
	}{
		{"renamed", "ci-on-main", nil},
		{"taken", "deploy", ErrExists},
		{"bad name", "../x", nil},
		{"missing", "x", ErrNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			v := mustOpen(t)
			for _, m := range []struct{ n, d, b string }{
				{"deploy", "Deploy with make", "See [[ci]] and [[ci-2]]."},
				{"ci", "CI runs on main", "Not [[deploy]]; self [[ci]]."},
				{"other", "Unrelated", "No links."},
			} {
				if err := v.Create(ctx, newMemory(m.n, m.d, m.b)); err != nil {
					t.Fatal(err)
				}
			}
			from := "ci"
			if tt.name == "missing" {
				from = "nope"
			}
			err := v.Rename(ctx, from, tt.to)
			if tt.name != "renamed" {
				if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) {
					t.Fatalf("Rename(ci, %s) = %v, want %v", tt.to, err, tt.wantErr)
				}
				if m, err := v.Load("ci"); err != nil || !strings.Contains(m.Body, "[[ci]]") {
					t.Errorf("after a refused rename ci is %v, %v", m, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(v.Path("ci")); err == nil {
				t.Errorf("ci.md is still there")
			}
			got, err := v.Load("ci-on-main")
			if err != nil || got.Name != "ci-on-main" || got.Body != "Not [[deploy]]; self [[ci-on-main]].\n" {
				t.Errorf("renamed memory = %+v, %v", got, err)
			}
			if d, _ := v.Load("deploy"); d.Body != "See [[ci-on-main]] and [[ci-2]].\n" {
				t.Errorf("deploy's body = %q, want its [[ci]] link rewritten and [[ci-2]] kept", d.Body)
			}
			idx, _ := os.ReadFile(v.Dir + "/" + IndexFile)
			if !strings.Contains(string(idx), "ci-on-main") || strings.Contains(string(idx), "(ci.md)") {
				t.Errorf("MEMORY.md does not list the new name:\n%s", idx)
			}
		})
	}
}
