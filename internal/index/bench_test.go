package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchVault writes n small memory files once per benchmark run.
func benchVault(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	words := strings.Fields("auth token cache redis deploy rollout billing invoice queue worker retry " +
		"postgres migration schema index query handler router middleware test fixture golden")
	for i := range n {
		var body strings.Builder
		for j := range 40 {
			body.WriteString(words[(i*7+j*13)%len(words)] + " ")
		}
		desc := fmt.Sprintf("%s %s memory %d", words[i%len(words)], words[(i/3)%len(words)], i)
		name := fmt.Sprintf("m%06d", i)
		if err := os.WriteFile(filepath.Join(dir, name+".md"), []byte(memFile(name, desc, body.String())), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

func BenchmarkSyncNoChange(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			dir := benchVault(b, n)
			db := mustOpen(b)
			if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSyncCold(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 2000)
	for b.Loop() {
		db, err := Open(ctx, filepath.Join(b.TempDir(), FileName), nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
			b.Fatal(err)
		}
		db.Close()
	}
}

func BenchmarkStoredFiles(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 10000)
	db := mustOpen(b)
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := db.storedFiles(ctx, "project"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWalk(b *testing.B) {
	dir := benchVault(b, 10000)
	for b.Loop() {
		if _, _, err := walk("project", dir); err != nil {
			b.Fatal(err)
		}
	}
}
