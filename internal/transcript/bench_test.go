package transcript

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/redact"
)

// resetPeakRSS resets the kernel's peak resident set size of this process
// (Linux); peakRSSMB then reports the peak since. Both do nothing elsewhere.
func resetPeakRSS() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	return 0
}

// digestFile opens, reads and digests a transcript, and renders the digest.
func digestFile(tb testing.TB, path string) (*Digest, *Reader) {
	tb.Helper()
	r, err := Open(path, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	d, err := Build(context.Background(), r, Options{})
	if err != nil {
		tb.Fatal(err)
	}
	_ = d.String()
	return d, r
}

// benchDigest digests the transcript at path once per iteration and reports
// the peak RSS of the process over all iterations.
func benchDigest(b *testing.B, path string) {
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(info.Size())
	resetPeakRSS()
	for b.Loop() {
		digestFile(b, path)
	}
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// BenchmarkDigest3MB digests a 3 MB synthetic transcript. Target: ≤ 250 ms
// and ≤ 60 MB peak RSS.
func BenchmarkDigest3MB(b *testing.B) {
	path, _ := writeSynthetic(b, 3<<20)
	benchDigest(b, path)
}

// BenchmarkDigestReal3MB digests 3 MB made of copies of a real transcript.
func BenchmarkDigestReal3MB(b *testing.B) {
	benchDigest(b, realBased(b, 3<<20))
}

// BenchmarkDigestRedact3MB digests 3 MB made of copies of a real
// transcript with redaction applied to every text kept, as the worker runs it.
func BenchmarkDigestRedact3MB(b *testing.B) {
	path := realBased(b, 3<<20)
	opts := Options{Redact: redact.New(redact.Options{}).String}
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	resetPeakRSS()
	for b.Loop() {
		r, err := Open(path, 0)
		if err != nil {
			b.Fatal(err)
		}
		d, err := Build(context.Background(), r, opts)
		if err != nil {
			b.Fatal(err)
		}
		_ = d.String()
		r.Close()
	}
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// BenchmarkDigest50MB streams and digests a 50 MB synthetic transcript.
// Target: RSS under 100 MB.
func BenchmarkDigest50MB(b *testing.B) {
	path, _ := writeSynthetic(b, 50<<20)
	benchDigest(b, path)
}

// BenchmarkRead50MB only reads the entries of a 50 MB transcript.
func BenchmarkRead50MB(b *testing.B) {
	path, _ := writeSynthetic(b, 50<<20)
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	resetPeakRSS()
	for b.Loop() {
		r, err := Open(path, 0)
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := r.Next(); err != nil {
				if !errors.Is(err, io.EOF) {
					b.Fatal(err)
				}
				break
			}
		}
		r.Close()
	}
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
}

// TestLargeTranscript reads and digests a 50 MB transcript and checks that
// nothing is lost: every line counted, every call paired, the offset at the
// end of the file. Its time and peak RSS are logged, not asserted (see
// BenchmarkDigest50MB).
func TestLargeTranscript(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB transcript: skipped with -short")
	}
	path, want := writeSynthetic(t, 50<<20)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	resetPeakRSS()
	start := time.Now()
	d, r := digestFile(t, path)
	elapsed := time.Since(start)
	st := r.Stats()
	if st.Lines != want.lines || st.Entries != want.entries || r.Offset() != info.Size() {
		t.Errorf("Lines, Entries, Offset = %d, %d, %d; want %d, %d, %d",
			st.Lines, st.Entries, r.Offset(), want.lines, want.entries, info.Size())
	}
	calls := d.calls()
	for _, c := range calls {
		if c.Outcome == OutcomeNone {
			t.Fatalf("call %s has no result", c.ID)
		}
	}
	if len(calls) != want.calls || len(d.Turns) != want.turns {
		t.Errorf("calls, turns = %d, %d; want %d, %d", len(calls), len(d.Turns), want.calls, want.turns)
	}
	t.Logf("%d MB, %d lines: digest of %d tokens in %v, peak RSS %.0f MB",
		info.Size()>>20, st.Lines, d.Tokens(), elapsed, peakRSSMB())
}
