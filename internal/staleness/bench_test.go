package staleness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// BenchmarkVerify1000 verifies 1,000 memories anchored to 2 files each,
// nothing changed, with the hash cache of a real index.db warm: the cost
// of 'mnemo verify' past listing the vault. Target: ≤ 50 ms.
func BenchmarkVerify1000(b *testing.B) {
	root := b.TempDir()
	ctx := context.Background()
	var mems []*memory.Memory
	for i := range 1000 {
		var files []string
		for j := range 2 {
			p := filepath.Join(root, fmt.Sprintf("pkg%d/file%d.go", i%50, (i*2+j)%400))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if _, err := os.Stat(p); err != nil {
				os.WriteFile(p, []byte(fmt.Sprintf("package p // %d\n", i)), 0o644)
			}
			files = append(files, p)
		}
		a, err := Anchor(root, root, "", files)
		if err != nil {
			b.Fatal(err)
		}
		mems = append(mems, memory.New(memory.Header{Name: fmt.Sprintf("m%d", i), Description: "d", Type: memory.TypeProject, Anchors: a}, "About the package."))
	}
	db, err := index.Open(ctx, filepath.Join(b.TempDir(), "index.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	warm, _ := db.HashCache(ctx)
	v := &Verifier{Root: root, Cache: warm}
	for _, m := range mems {
		v.Verify(ctx, m)
	}
	warm.Save(ctx)
	for b.Loop() {
		cache, err := db.HashCache(ctx)
		if err != nil {
			b.Fatal(err)
		}
		v := &Verifier{Root: root, Cache: cache}
		for _, m := range mems {
			if r := v.Verify(ctx, m); r.State != Fresh {
				b.Fatalf("%s: %+v", m.Name, r)
			}
		}
	}
}

// BenchmarkChanged checks a memory anchored to two files of 20 KB, as the
// MCP server does for each result of a recall: without a memo (a hook)
// and with one (the server), once the files have settled (see package filestamp).
func BenchmarkChanged(b *testing.B) {
	root := b.TempDir()
	var files []string
	for _, name := range []string{"a.go", "b.go"} {
		p := filepath.Join(root, name)
		if err := os.WriteFile(p, []byte(strings.Repeat("package a // some code\n", 900)), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, p)
	}
	a, err := Anchor(root, root, "", files)
	if err != nil {
		b.Fatal(err)
	}
	m := memory.New(memory.Header{Name: "a", Description: "d", Type: memory.TypeProject, Anchors: a}, "About a.")
	time.Sleep(filestamp.Window + 100*time.Millisecond) // settled
	for _, tt := range []struct {
		name string
		hs   Hashes
	}{{"hook", nil}, {"memo", &Memo{}}} {
		b.Run(tt.name, func(b *testing.B) {
			for b.Loop() {
				if got := Changed(root, m, tt.hs); len(got) != 0 {
					b.Fatal(got)
				}
			}
		})
	}
}
