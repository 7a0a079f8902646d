package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// ScaleOptions say how to run the scale benchmark.
type ScaleOptions struct {
	N       int    // memories in the synthetic vault
	Queries int    // recall queries timed; 1,000 when 0
	Seed    uint64 // the synthetic vault and queries are a function of the seed
	Dir     string // where the vault and index go; a temporary folder when empty
	Config  recall.Config
	// Progress, when set, is told what the run is doing, for a person waiting.
	Progress func(step string)
}

// A ScaleReport holds the timings of one scale run.
type ScaleReport struct {
	N            int           `json:"n"`
	Write        time.Duration `json:"-"` // writing the vault, not part of mnemo
	Build        time.Duration `json:"-"`
	NoChangeSync time.Duration `json:"-"` // the median of several
	Edited       int           `json:"edited"`
	EditSync     time.Duration `json:"-"`
	Queries      int           `json:"queries"`
	P50, P95     time.Duration `json:"-"`
	P99, Max     time.Duration `json:"-"`
	IndexBytes   int64         `json:"index_bytes"`
	PeakRSS      int64         `json:"peak_rss_bytes"`

	// CPU time of the same steps (user and system, all threads): on a
	// busy machine, what they cost without the wait for a core.
	BuildCPU, NoChangeSyncCPU, EditSyncCPU time.Duration `json:"-"`
	CPUP50, CPUP95, CPUP99                 time.Duration `json:"-"`
}

// RunScale writes a synthetic vault of opts.N memories and times a cold
// index build, a sync that finds nothing changed, a sync after editing 1%
// of the files, and recall over opts.Queries queries.
func RunScale(ctx context.Context, opts ScaleOptions) (*ScaleReport, error) {
	if opts.N <= 0 {
		return nil, fmt.Errorf("bench: scale: n must be positive, got %d", opts.N)
	}
	if opts.Queries <= 0 {
		opts.Queries = 1000
	}
	dir := opts.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mnemo-scale-")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	r, err := runScale(ctx, opts, dir)
	if err != nil {
		return nil, fmt.Errorf("bench: scale: %w", err)
	}
	return r, nil
}

func runScale(ctx context.Context, opts ScaleOptions, dir string) (*ScaleReport, error) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	s := newSynth(opts.Seed, opts.N, now)
	vaultDir := filepath.Join(dir, "vault")
	r := &ScaleReport{N: opts.N, Queries: opts.Queries}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	progress(fmt.Sprintf("writing %d memories", opts.N))
	start := time.Now()
	if err := s.writeVault(vaultDir); err != nil {
		return nil, err
	}
	r.Write = time.Since(start)
	dbPath := filepath.Join(dir, index.FileName)
	db, err := index.Open(ctx, dbPath, nil)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	src := index.Source{Name: "project", Dir: vaultDir}
	progress("building the index")
	if r.Build, r.BuildCPU, err = timeSync(ctx, db, src, opts.N); err != nil {
		return nil, err
	}
	var runs, cpus []time.Duration
	for range 5 {
		d, c, err := timeSync(ctx, db, src, 0)
		if err != nil {
			return nil, err
		}
		runs, cpus = append(runs, d), append(cpus, c)
	}
	r.NoChangeSync, r.NoChangeSyncCPU = percentile(runs, 50), percentile(cpus, 50)
	progress("editing 1% and syncing")
	if r.Edited, err = editSome(s, vaultDir, max(opts.N/100, 1)); err != nil {
		return nil, err
	}
	if r.EditSync, r.EditSyncCPU, err = timeSync(ctx, db, src, r.Edited); err != nil {
		return nil, err
	}
	progress(fmt.Sprintf("running %d queries", opts.Queries))
	if err := timeRecall(ctx, recall.New(db, opts.Config), s, now, r); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(dbPath); err == nil {
		r.IndexBytes = fi.Size()
	}
	r.PeakRSS = peakRSS()
	return r, nil
}

// timeSync times one sync, in wall and CPU time, and checks that it
// wrote want files.
func timeSync(ctx context.Context, db *index.DB, src index.Source, want int) (wall, cpu time.Duration, err error) {
	start, cpu0 := time.Now(), cpuTime()
	st, err := db.Sync(ctx, src)
	wall, cpu = time.Since(start), cpuTime()-cpu0
	if err != nil {
		return 0, 0, err
	}
	if len(st.Problems) > 0 {
		return 0, 0, st.Problems[0]
	}
	if got := st.Added + st.Updated; got != want {
		return 0, 0, fmt.Errorf("sync wrote %d memories, want %d", got, want)
	}
	return wall, cpu, nil
}

// editSome rewrites k memories with a new body and a later mtime.
func editSome(s *synth, dir string, k int) (int, error) {
	for i := range k {
		j := (i * 97) % s.n
		path := filepath.Join(dir, s.name(j)+".md")
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		m, err := memory.Parse(path, data)
		if err != nil {
			return 0, err
		}
		m.Body += "Edited: " + s.sentence(8) + ".\n"
		if err := os.WriteFile(path, m.Render(), 0o644); err != nil {
			return 0, err
		}
		later := time.Now().Add(time.Minute)
		if err := os.Chtimes(path, later, later); err != nil {
			return 0, err
		}
	}
	return k, nil
}

// timeRecall runs the queries after a short warm-up and fills in the percentiles.
func timeRecall(ctx context.Context, e *recall.Engine, s *synth, now time.Time, r *ScaleReport) error {
	lat := make([]time.Duration, 0, r.Queries)
	cpu := make([]time.Duration, 0, r.Queries)
	for i := range r.Queries + 20 {
		text, files := s.query()
		start, cpu0 := time.Now(), cpuTime()
		if _, err := e.Recall(ctx, recall.Query{Text: text, Files: files, Now: now}); err != nil {
			return err
		}
		if i >= 20 {
			lat, cpu = append(lat, time.Since(start)), append(cpu, cpuTime()-cpu0)
		}
	}
	r.P50, r.P95, r.P99 = percentile(lat, 50), percentile(lat, 95), percentile(lat, 99)
	r.CPUP50, r.CPUP95, r.CPUP99 = percentile(cpu, 50), percentile(cpu, 95), percentile(cpu, 99)
	r.Max = slices.Max(lat)
	return nil
}

// percentile returns the p-th percentile of ds by the nearest-rank method.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[min(max(i, 0), len(s)-1)]
}
