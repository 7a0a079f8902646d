package worker

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/longsession"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

// BenchmarkHeuristicJob30MB runs the worker's job with the heuristic
// extractor over a 30 MB long session ([longsession]): the digest, the
// extraction, and the consolidation of what it found (up to
// maxFactsPerJob facts, each with its passage). It reports the facts the
// job consolidated.
func BenchmarkHeuristicJob30MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := longsession.Write(f, longsession.Size{Bytes: 30 << 20}); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	x := FromExtract(extract.NewHeuristic(extract.Config{}))
	ctx := context.Background()
	facts := 0
	b.SetBytes(30 << 20)
	b.ReportAllocs()
	for b.Loop() {
		p := newProject(b)
		if _, err := p.q.Enqueue(ctx, queue.Job{Session: "long-session", Transcript: path, Event: "session-end"}); err != nil {
			b.Fatal(err)
		}
		if err := p.worker(x, time.Minute).Run(ctx); err != nil {
			b.Fatal(err)
		}
		jobs, err := p.q.List(ctx, "done")
		if err != nil || len(jobs) != 1 {
			b.Fatalf("jobs done = %+v, %v; want one", jobs, err)
		}
		facts = jobs[0].Facts
	}
	b.ReportMetric(float64(facts), "facts")
}
