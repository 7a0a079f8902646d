package extract

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/longsession"
	"github.com/mnemo-dev/mnemo/internal/race"
)

// TestHeuristicLongSessionBounded: the heuristic extractor reads a long
// session in allocations proportional to its digest. It rendered and
// redacted the whole digest for every session, built a replacer for each
// sentence it lower-cased, parsed every command again for each failure
// still open, and read every later turn again for each problem reported:
// 1.5 GB for 20,000 prompts, 90-100x the digest at 2,000 and 4,000. Now
// about 4x when the session's folder is here and 11x when it is not (the
// digest is then rendered and redacted once, for the paths it mentions).
func TestHeuristicLongSessionBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long sessions: skipped with -short")
	}
	if race.Enabled {
		t.Skip("allocations under the race detector are not the program's (see package race)")
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		prompts int
		cwd     string // "" keeps the transcript's, not on this machine
	}{
		{"2000 prompts, folder not here", 2000, ""},
		{"4000 prompts, folder not here", 4000, ""},
		{"4000 prompts, folder here", 4000, here},
	}
	h := NewHeuristic(Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "long.jsonl")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := longsession.Write(f, longsession.Size{Prompts: tt.prompts}); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			d := digestFile(t, path)
			if tt.cwd != "" {
				d.Meta.CWD = tt.cwd
			}
			size := len(d.String())
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cands, _, err := h.Extract(context.Background(), d)
			runtime.ReadMemStats(&after)
			if err != nil || len(cands) == 0 {
				t.Fatalf("Extract = %d candidates, %v; want some", len(cands), err)
			}
			made := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d candidates, %d bytes allocated for a digest of %d (%.1fx)", len(cands), made, size, float64(made)/float64(size))
			if made > uint64(16*size) {
				t.Errorf("%d bytes allocated for a digest of %d, want at most 16x it (%d)", made, size, 16*size)
			}
		})
	}
}
