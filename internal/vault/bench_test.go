package vault

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

var benchWords = strings.Fields(`auth billing deploy cache retry index schema token session worker queue
migration config logging metrics tracing handler router middleware storage bucket upload
release build test lint vet module import package interface struct error context timeout`)

// makeVault writes n realistic memories into a new vault folder.
func makeVault(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = benchWords[r.IntN(len(benchWords))]
		}
		return strings.Join(w, " ")
	}
	created := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		name := fmt.Sprintf("memory-%05d", i)
		m := memory.New(memory.Header{
			Name: name, Description: "How " + words(8), Type: memory.Types[i%4],
			Created: created.Add(time.Duration(i) * time.Minute), Updated: created.Add(time.Duration(i) * time.Minute),
			Source: "manual", Confidence: 0.9, Tags: []string{benchWords[i%len(benchWords)]},
			Anchors: memory.Anchors{Commit: "4f2e9c1d0b7a", Files: []memory.FileAnchor{{Path: "internal/x.go", SHA256: "0123456789abcdef"}}},
		}, words(40)+" See [[memory-"+fmt.Sprintf("%05d", (i+1)%n)+"]].")
		if err := os.WriteFile(filepath.Join(dir, name+".md"), m.Render(), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// BenchmarkList10k loads a vault of 10,000 memories cold. Target: ≤ 300 ms.
func BenchmarkList10k(b *testing.B) {
	dir := makeVault(b, 10_000)
	for b.Loop() {
		v, err := Open(dir, filepath.Join(b.TempDir(), "lock"))
		if err != nil {
			b.Fatal(err)
		}
		entries, problems := v.List()
		if len(entries) != 10_000 || len(problems) != 0 {
			b.Fatalf("List = %d entries, %d problems", len(entries), len(problems))
		}
	}
}

// BenchmarkRenderIndex10k regenerates MEMORY.md for 10,000 loaded memories.
// Target: ≤ 100 ms.
func BenchmarkRenderIndex10k(b *testing.B) {
	dir := makeVault(b, 10_000)
	v, err := Open(dir, filepath.Join(b.TempDir(), "lock"))
	if err != nil {
		b.Fatal(err)
	}
	entries, _ := v.List()
	for b.Loop() {
		RenderIndex(nil, entries)
	}
}

// BenchmarkReindex10k is what every write pays: list (parsing only what
// changed) and regenerate MEMORY.md in a vault of 10,000 memories.
func BenchmarkReindex10k(b *testing.B) {
	dir := makeVault(b, 10_000)
	v, err := Open(dir, filepath.Join(b.TempDir(), "lock"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for b.Loop() {
		if err := v.Reindex(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite is one locked write with its index update in a small vault.
func BenchmarkWrite(b *testing.B) {
	dir := makeVault(b, 100)
	v, err := Open(dir, filepath.Join(b.TempDir(), "lock"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	m := memory.New(memory.Header{Name: "bench", Description: "Benchmark write", Type: memory.TypeProject}, "body")
	if err := v.Create(ctx, m); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		if _, err := v.Update(ctx, "bench", func(m *memory.Memory) error {
			m.Body = fmt.Sprintf("body %d\n", i)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
