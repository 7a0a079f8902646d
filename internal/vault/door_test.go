package vault

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestMerge folds one memory into another: the kept one gets what fn
// gives it, links to the other point at the kept one, and the other is
// removed or marked superseded; a refused merge changes nothing.
func TestMerge(t *testing.T) {
	takeText := func(k, g *memory.Memory) error {
		k.Description, k.Body = g.Description, g.Body
		return nil
	}
	tests := []struct {
		name       string
		keep, gone string
		supersede  bool
		fn         func(k, g *memory.Memory) error
		wantErr    bool
	}{
		{"removed", "ci", "ci-2", false, takeText, false},
		{"superseded", "ci", "ci-2", true, takeText, false},
		{"fn refuses", "ci", "ci-2", false, func(k, g *memory.Memory) error { return errors.New("no") }, true},
		{"a secret in the result", "ci", "ci-2", false, func(k, g *memory.Memory) error {
			k.Body = "token ghp_" + strings.Repeat("a1B2", 9)
			return nil
		}, true},
		{"into itself", "ci", "ci", false, takeText, true},
		{"gone is missing", "ci", "nope", false, takeText, true},
		{"keep is missing", "nope", "ci-2", false, takeText, true},
		{"a bad name", "ci", "../deploy", false, takeText, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			v := mustOpen(t)
			for _, m := range []struct{ n, d, b string }{
				{"deploy", "Deploy with make", "See [[ci]] and [[ci-2]]."},
				{"ci", "CI runs on main", "Pushes to main run it."},
				{"ci-2", "CI runs on every push to main", "Every push to main runs .ci/run; not [[deploy]]."},
			} {
				if err := v.Create(ctx, newMemory(m.n, m.d, m.b)); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, v)
			err := v.Merge(ctx, tt.keep, tt.gone, tt.supersede, Removal{Vault: "project", Reason: "merged", Source: "test", At: time.Now()}, tt.fn)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("Merge(%s, %s) = nil, want an error", tt.keep, tt.gone)
				}
				if after := snapshot(t, v); after != before {
					t.Errorf("a refused merge changed the vault:\n%s\nwas\n%s", after, before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			k, _ := v.Load("ci")
			if k.Description != "CI runs on every push to main" || !strings.Contains(k.Body, "not [[deploy]]") {
				t.Errorf("kept = %q %q, want the other's text", k.Description, k.Body)
			}
			if d, _ := v.Load("deploy"); d.Body != "See [[ci]] and [[ci]].\n" {
				t.Errorf("deploy's body = %q, want its [[ci-2]] link rewritten to [[ci]]", d.Body)
			}
			g, err := v.Load("ci-2")
			switch {
			case tt.supersede && (err != nil || g.Status != memory.StatusSuperseded || g.SupersededBy != "ci" || g.Description != "CI runs on every push to main"):
				t.Errorf("ci-2 = %+v, %v; want it kept, superseded by ci", g, err)
			case !tt.supersede && err == nil:
				t.Errorf("ci-2 is still there")
			}
			idx, _ := os.ReadFile(v.Dir + "/" + IndexFile)
			if strings.Contains(string(idx), "(ci-2.md)") {
				t.Errorf("MEMORY.md lists the merged memory:\n%s", idx)
			}
		})
	}
}

// snapshot is every file of the vault, for comparing before and after.
func snapshot(t *testing.T, v *Vault) string {
	t.Helper()
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, de := range des {
		data, _ := os.ReadFile(v.Dir + "/" + de.Name())
		b.WriteString("== " + de.Name() + "\n" + string(data))
	}
	return b.String()
}
