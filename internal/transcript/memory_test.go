package transcript

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeLongSession writes a transcript of at least size bytes shaped like a
// long working session: many short turns (a prompt, sometimes with injected
// context; prose; a short call or none) with, every fourth turn, the calls
// of [synth.call] and their large outputs (file contents, command output,
// one error in ten, one huge output in fifty). Its digest is a fifth to a
// third of its size: the prompts and prose are kept, the outputs are not.
func writeLongSession(tb testing.TB, size int64) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "long.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g := &synth{r: rand.New(rand.NewPCG(3, 4)), w: w}
	for g.written < size {
		g.shortTurn()
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

func (g *synth) shortTurn() {
	g.counts.turns++
	prompt := g.words(10 + g.r.IntN(70))
	if g.r.IntN(3) == 0 {
		prompt += "\n<system-reminder>\n" + g.words(60) + "\n</system-reminder>"
	}
	g.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}}, true)
	id := fmt.Sprint(g.seq)
	g.assistant(id, map[string]any{"type": "text", "text": g.words(10 + g.r.IntN(60))})
	switch g.r.IntN(8) {
	case 0:
		g.call(id)
	case 1:
		g.counts.calls++
		tid := fmt.Sprintf("toolu_%d", g.seq)
		g.assistant(id, map[string]any{"type": "tool_use", "id": tid, "name": "Bash", "input": map[string]any{"command": "go test ./internal/" + g.words(1) + "/..."}})
		out := g.words(20+g.r.IntN(80)) + "\nok  \tgithub.com/dev/shop/internal/cart\t0.31s"
		g.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": tid, "content": out, "is_error": false}}}}, true)
	}
}

// heapPeaks samples the heap every millisecond until stop is called,
// which returns the highest growth over the first sample of the live heap
// as the collector last measured it (/gc/heap/live:bytes: what was
// reachable at the end of the last cycle, garbage made since left out),
// and of the heap's objects live or not yet swept (what the process holds
// at the GOGC it runs with).
func heapPeaks() (stop func() (live, heap uint64)) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	var base, peak [2]uint64
	read := func() {
		metrics.Read(sample)
		for i, s := range sample {
			peak[i] = max(peak[i], s.Value.Uint64())
		}
	}
	runtime.GC()
	read()
	base = peak
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				read()
			}
		}
	})
	return func() (uint64, uint64) {
		close(done)
		wg.Wait()
		read()
		return peak[0] - base[0], peak[1] - base[1]
	}
}

// digestAsWorker digests the transcript at path as the worker does: a
// Builder reads the file, the Digest is taken, and rendered whole (its
// size, [Digest.Tokens], and the heuristic extractor) and in chunks (a
// model's requests). It returns the rendered size in bytes.
func digestAsWorker(tb testing.TB, path string) int {
	tb.Helper()
	b := NewBuilder(Options{})
	if _, err := b.ReadFile(context.Background(), path, 0); err != nil {
		tb.Fatal(err)
	}
	d := b.Digest()
	text := d.String()
	chunks := d.Chunks(20000)
	runtime.KeepAlive(chunks)
	return len(text)
}

// TestDigestMemory reproduces a worker that took 189 MB to digest a 29 MB
// transcript and 1.5 GB for 294 MB (on a laptop it swapped, or was killed
// on every retry and the session's facts were lost). It digests a 40 MB
// long session as the worker and its extractors do ([digestAsWorker]) and
// bounds the growth of the live heap by what a digest must hold, in units
// of its rendered size D: the Digest itself, 1.7 D (its text, with the
// turns, items and calls that carry it), the builder's structures while the
// Digest is taken from them (0.7 D), and one rendering at a time (the text
// or the chunks, 1 D): under 3 D, plus 4 MB for the reader's buffers, the
// line being decoded and the runtime. The live heap is the collector's own
// measure, made frequent with GOGC=25, so that garbage not yet collected is
// not counted. Rendering whole held every turn's text twice over besides
// the Digest (the blocks and the whole, in a builder grown by doubling;
// the pieces and the chunks): 4.1-5.4 D, 36-48 MB here.
func TestDigestMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("40 MB transcript: skipped with -short")
	}
	path := writeLongSession(t, 40<<20)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(25))
	stop := heapPeaks()
	size := digestAsWorker(t, path)
	live, _ := stop()
	peak := float64(live)
	limit := 4<<20 + 3*float64(size)
	t.Logf("%d MB transcript, %.1f MB digest: peak live heap growth %.1f MB (%.1f D, %.2f of the transcript), limit %.1f MB",
		info.Size()>>20, mb(size), mb(peak), peak/float64(size), peak/float64(info.Size()), mb(limit))
	if peak > limit {
		t.Errorf("digesting a %d MB transcript into %.1f MB: peak live heap growth %.1f MB, want at most %.1f MB (4 MB + 3x the digest)",
			info.Size()>>20, mb(size), mb(peak), mb(limit))
	}
}

func mb[N int | int64 | uint64 | float64](n N) float64 { return float64(n) / (1 << 20) }

// BenchmarkDigestMemory30MB digests a 30 MB long session as the worker does
// and reports the peak growth of the live heap, of the heap with its
// garbage (what the process needs at the default GOGC) and the peak RSS.
func BenchmarkDigestMemory30MB(b *testing.B) { benchDigestMemory(b, 30<<20) }

// BenchmarkDigestMemory300MB is BenchmarkDigestMemory30MB on 300 MB, run
// only when MNEMO_BENCH_300MB is set (it takes minutes and 300 MB of disk).
func BenchmarkDigestMemory300MB(b *testing.B) {
	if os.Getenv("MNEMO_BENCH_300MB") == "" {
		b.Skip("set MNEMO_BENCH_300MB=1 to digest 300 MB")
	}
	benchDigestMemory(b, 300<<20)
}

func benchDigestMemory(b *testing.B, size int64) {
	path := writeLongSession(b, size)
	b.SetBytes(size)
	var live, all uint64
	resetPeakRSS()
	for b.Loop() {
		stop := heapPeaks()
		digestAsWorker(b, path)
		l, a := stop()
		live, all = max(live, l), max(all, a)
	}
	b.ReportMetric(mb(live), "peak-live-MB")
	b.ReportMetric(mb(all), "peak-heap-MB")
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// TestWriteTo: WriteTo writes what String returns, and stops at the first
// error of its writer, saying how much it wrote.
func TestWriteTo(t *testing.T) {
	syn, _ := writeSynthetic(t, 1<<20)
	paths := map[string]string{"synthetic": syn}
	for _, name := range []string{"ccviewer__fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", "spotter__subagent.jsonl", "spotter__tool_heavy.jsonl"} {
		if p := filepath.Join(realDir, name); fileExists(p) {
			paths[name] = p
		}
	}
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			d, _ := digestFile(t, path)
			want := d.String()
			var b strings.Builder
			n, err := d.WriteTo(&b)
			if err != nil || b.String() != want || n != int64(len(want)) {
				t.Errorf("WriteTo = %d, %v, %d bytes differing from String's %d: %v", n, err, b.Len(), len(want), b.String() != want)
			}
			for _, limit := range []int{0, 10, len(want) / 2, len(want) - 1} {
				w := &failingWriter{left: limit}
				n, err := d.WriteTo(w)
				if !errors.Is(err, errFull) || n != int64(limit) || w.b.String() != want[:limit] {
					t.Errorf("WriteTo a writer full after %d bytes = %d, %v; want %d, %v, and the text's start", limit, n, err, limit, errFull)
				}
			}
		})
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

var errFull = errors.New("full")

// failingWriter takes left bytes, then fails.
type failingWriter struct {
	b    strings.Builder
	left int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.left)
	w.b.Write(p[:n])
	w.left -= n
	if n < len(p) {
		return n, errFull
	}
	return n, nil
}
