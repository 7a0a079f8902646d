package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// TestLoCoMoTune scores several rankings on the development file, for
// tuning (on that file only): MNEMO_TUNE_DIR names a folder that keeps
// the vaults, indexes and vectors between runs (so the turns are embedded
// once), and MNEMO_TUNE_CONFIGS a JSON object of named recall.Config
// overrides. Each ranking is logged with its lists alone and per
// category; nothing is asserted.
func TestLoCoMoTune(t *testing.T) {
	dir := os.Getenv("MNEMO_TUNE_DIR")
	if dir == "" {
		t.Skip("MNEMO_TUNE_DIR not set")
	}
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	q := &cachedQueries{m: m, path: filepath.Join(dir, "queries.json")}
	q.read()
	defer q.write(t)
	configs := map[string]json.RawMessage{"default": json.RawMessage("{}")}
	if s := os.Getenv("MNEMO_TUNE_CONFIGS"); s != "" {
		if err := json.Unmarshal([]byte(s), &configs); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(configs))
	for name := range configs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		cfg := recall.DefaultConfig()
		if err := json.Unmarshal(configs[name], &cfg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg.Semantic = q
		r, err := RunLoCoMo(context.Background(), convs, LoCoMoOptions{Config: cfg, Dir: dir, Embedder: m, Lists: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s (%v):\n%s", name, r.Elapsed, tuneLines(r))
	}
}

// tuneLines is a report as one line per ranking, overall then by category.
func tuneLines(r *LoCoMoReport) string {
	var b strings.Builder
	line := func(name string, r *LoCoMoReport) {
		b.WriteString("  " + name + "\t" + triple(r.Overall))
		for _, c := range []string{"1", "2", "3", "4", "5"} {
			b.WriteString(" | " + c + ": " + triple(r.ByCategory[c]))
		}
		b.WriteString("\n")
	}
	line("fused", r)
	for _, name := range []string{"words", "meaning"} {
		if l := r.Lists[name]; l != nil {
			line(name, l)
		}
	}
	return b.String()
}

func triple(m map[string]float64) string {
	out, _ := json.Marshal([]float64{m["r@5"], m["r@10"], m["r@25"]})
	return string(out)
}

// cachedQueries embeds queries through m, once each, keeping the vectors
// in a file between runs.
type cachedQueries struct {
	m    *embed.Model
	path string
	mu   sync.Mutex
	vecs map[string][]float32
}

func (c *cachedQueries) read() {
	c.vecs = make(map[string][]float32)
	if b, err := os.ReadFile(c.path); err == nil {
		json.Unmarshal(b, &c.vecs)
	}
}

func (c *cachedQueries) write(t *testing.T) {
	b, err := json.Marshal(c.vecs)
	if err == nil {
		err = os.WriteFile(c.path, b, 0o644)
	}
	if err != nil {
		t.Error(err)
	}
}

func (c *cachedQueries) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.vecs[text]; ok {
		return v, nil
	}
	v, err := c.m.EmbedQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	c.vecs[text] = v
	return v, nil
}
