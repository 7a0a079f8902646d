package index

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
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
		if _, _, err := walk("project", dir, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHookOpen times what a hook does with the index in its own
// process: open the file (a new connection pool), read the session's
// injections and the suspect verdicts, search, record the delivery, close.
func BenchmarkHookOpen(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 1000)
	path := filepath.Join(b.TempDir(), FileName)
	db, err := Open(ctx, path, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		b.Fatal(err)
	}
	db.Close()
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	i := 0
	for b.Loop() {
		db, err := Open(ctx, path, nil)
		if err != nil {
			b.Fatal(err)
		}
		session := fmt.Sprintf("s%d", i%50)
		if _, err := db.Injected(ctx, session); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Suspects(ctx); err != nil {
			b.Fatal(err)
		}
		res, err := db.Search(ctx, WordQuery{Terms: []string{"deploy rollout retry"}, Weights: Weights{1, 1, 1, 1, 1, 0.2}, Limit: 10})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(res, err)
		}
		k := res.Hits[i%len(res.Hits)].Head.Key
		if err := db.Record(ctx, now, Delivery{Session: session, Injected: []Key{k}, Recalled: []Key{k}}); err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPruneHistory times the worker's pruning of a month of heavy use
// at 10,000 memories: 30,000 injections in 600 sessions, a recall count
// and a verdict for each memory and for 2,000 memories since deleted.
// After the first run it finds nothing to delete: the steady state.
func BenchmarkPruneHistory(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 10000)
	db := mustOpen(b)
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		b.Fatal(err)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	for i := range 30000 {
		at := formatTime(now.Add(-time.Duration(i%45) * day))
		if _, err := tx.Exec(`INSERT OR IGNORE INTO history.injections VALUES (?, 'project', ?, ?)`,
			fmt.Sprintf("s%03d", i%600), fmt.Sprintf("m%06d", i%10000), at); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 12000 {
		at := formatTime(now.Add(-time.Duration(i%400) * day))
		name := fmt.Sprintf("m%06d", i)
		if _, err := tx.Exec(`INSERT INTO history.recall_stats VALUES ('project', ?, 3, ?)`, name, at); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO history.verify_state VALUES ('project', ?, 'fresh', '', ?, ?)`, name, at, at); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := db.PruneHistory(ctx, now); err != nil {
			b.Fatal(err)
		}
	}
}

// hashEmbedder gives each text a pseudo-random unit vector of 512 values,
// the model's size, at no cost.
type hashEmbedder struct{}

func (hashEmbedder) ModelID() string { return "hash" }

func (hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v, x := make([]float32, 512), uint64(len(t))*0x9e3779b97f4a7c15
		for _, c := range t {
			x = (x ^ uint64(c)) * 0x100000001b3
		}
		var n float32
		for j := range v {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			v[j] = float32(int64(x%2001)-1000) / 1000
			n += v[j] * v[j]
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(float64(n)))
		}
		out[i] = v
	}
	return out, nil
}

// BenchmarkNearest10k times recall by meaning's scan of 10,000 vectors:
// "cached" as a long-lived process (the MCP server) scans them, "read"
// as a new process does, reading them from the file first. Kept as int8
// and scored by dots, "cached" took 0.53 ms against 0.93 ms with gonum's
// Sgemv over float32 (medians of 6, at load 4-10 on 2 cores; 0.33 ms at
// the least loaded), "read" 14 ms and 11.8 MB against 19 ms and 27.1 MB.
func BenchmarkNearest10k(b *testing.B) {
	ctx := context.Background()
	dir := benchVault(b, 10000)
	db := mustOpen(b)
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		b.Fatal(err)
	}
	if _, err := db.EmbedMissing(ctx, hashEmbedder{}, nil); err != nil {
		b.Fatal(err)
	}
	q, _ := hashEmbedder{}.Embed(ctx, []string{"a query"})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.Nearest(ctx, NearQuery{Vector: q[0], Model: "hash", Limit: 30}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("read", func(b *testing.B) {
		for b.Loop() {
			db.vmu.Lock()
			db.vstate = nil
			db.vmu.Unlock()
			if _, err := db.Nearest(ctx, NearQuery{Vector: q[0], Model: "hash", Limit: 30}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEmbedVault times [DB.EmbedMissing] with the built-in model over
// 500 memories of about 50 words (what the worker does for a vault, a
// batch at a time), and reports the time per memory and what 10,000 would
// take. Run it with -benchtime 1x: one pass is minutes of CPU.
func BenchmarkEmbedVault(b *testing.B) {
	const n = 500
	ctx := context.Background()
	m, err := embed.Load()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		dir := benchVault(b, n)
		db := mustOpen(b)
		if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if _, err := db.EmbedMissing(ctx, m, nil); err != nil {
			b.Fatal(err)
		}
		per := time.Since(start) / n
		b.ReportMetric(float64(per.Microseconds())/1000, "ms/memory")
		b.ReportMetric((per * 10_000).Minutes(), "min/10k")
	}
}
