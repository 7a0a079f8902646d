package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// TestLoCoMoTune scores several rankings on the development file, for
// tuning (on that file only): MNEMO_TUNE_DIR names a folder that keeps
// the vaults, indexes and vectors between runs (so the turns are embedded
// once), and MNEMO_TUNE_CONFIGS a JSON object of named recall.Config
// overrides. Each ranking is logged with its lists alone and per
// category; nothing is asserted. MNEMO_TUNE_CONVS, a comma-separated
// list of conversation ids, scores those conversations only: one fold
// of a cross-validation, to choose a setting on some conversations and
// report it on the others.
func TestLoCoMoTune(t *testing.T) {
	dir := os.Getenv("MNEMO_TUNE_DIR")
	if dir == "" {
		t.Skip("MNEMO_TUNE_DIR not set")
	}
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	if s := os.Getenv("MNEMO_TUNE_CONVS"); s != "" {
		if convs, err = foldOf(convs, strings.Split(s, ",")); err != nil {
			t.Fatal(err)
		}
	}
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	// MNEMO_TUNE_QUERY_TOKENS cuts the questions as a hook does (see
	// embed.Lazy.Short), their vectors kept in a file of their own.
	var short recall.QueryEmbedder = m
	file := "queries.json"
	if s := os.Getenv("MNEMO_TUNE_QUERY_TOKENS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		short, file = embed.NewLazy().Short(n), "queries-"+s+".json"
	}
	q := &cachedQueries{m: short, path: filepath.Join(dir, file)}
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

// foldOf returns the conversations of convs whose ids are in ids, in
// their order; an id that names none is an error.
func foldOf(convs []Conversation, ids []string) ([]Conversation, error) {
	var out []Conversation
	for _, id := range ids {
		i := slices.IndexFunc(convs, func(c Conversation) bool { return c.ID == strings.TrimSpace(id) })
		if i < 0 {
			return nil, fmt.Errorf("MNEMO_TUNE_CONVS: no conversation %q", id)
		}
		out = append(out, convs[i])
	}
	return out, nil
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
	m    recall.QueryEmbedder
	path string
	mu   sync.Mutex
	vecs map[string][]float32
}

// probeText is embedded with the cached vectors and kept under the key
// "" (a query the model is never asked, see [recall.MeaningText]): a
// file written by another model is not read, so that its vectors are
// not scored against this one's.
const probeText = "deploys go through make deploy"

func (c *cachedQueries) read() {
	c.vecs = make(map[string][]float32)
	if b, err := os.ReadFile(c.path); err == nil {
		json.Unmarshal(b, &c.vecs)
	}
	probe, err := c.m.EmbedQuery(context.Background(), probeText)
	if err != nil || len(probe) != len(c.vecs[""]) || embed.Cosine(probe, c.vecs[""]) < 0.99999 {
		c.vecs = make(map[string][]float32) // another model's, or none
	}
	c.vecs[""] = probe
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

// ModelID is the model of the embedder the vectors are kept of.
func (c *cachedQueries) ModelID() string { return c.m.ModelID() }

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

// TestLoCoMoDump writes, for each question of the development file, the
// parts of the words-only ranking of its best 300 turns and the cosine of
// every turn, as JSON lines to MNEMO_TUNE_DUMP, for trying fusions
// offline. It needs the folder TestLoCoMoTune filled.
func TestLoCoMoDump(t *testing.T) {
	dir, out := os.Getenv("MNEMO_TUNE_DIR"), os.Getenv("MNEMO_TUNE_DUMP")
	if dir == "" || out == "" {
		t.Skip("MNEMO_TUNE_DIR or MNEMO_TUNE_DUMP not set")
	}
	ctx := context.Background()
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	qs := &cachedQueries{m: m, path: filepath.Join(dir, "queries.json")}
	qs.read()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, c := range convs {
		db, err := index.Open(ctx, filepath.Join(dir, safeName(c.ID), index.FileName), nil)
		if err != nil {
			t.Fatal(err)
		}
		// The turns' vectors are of the model TestLoCoMoTune embedded them
		// with: of another, the dump would hold no cosines.
		if model, err := db.VectorModel(ctx); err != nil || model != qs.ModelID() {
			t.Fatalf("%s: the turns' vectors are of model %q, not %q (%v): run TestLoCoMoTune first", c.ID, model, qs.ModelID(), err)
		}
		e := recall.New(db, recall.DefaultConfig())
		now := lastDate(c).Add(24 * time.Hour)
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 {
				continue
			}
			rs, err := e.Recall(ctx, recall.Query{Text: q.Text, Limit: 300, Now: now})
			if err != nil {
				t.Fatal(err)
			}
			cos, err := cosines(ctx, db, qs, q.Text)
			if err != nil {
				t.Fatal(err)
			}
			var ev []string
			for _, id := range q.Evidence {
				ev = append(ev, turnName(id))
			}
			if err := enc.Encode(map[string]any{"conv": c.ID, "q": q.Text, "cat": q.Category, "evidence": ev, "words": wordParts(rs), "cos": cos,
				"terms": len(recall.Terms(q.Text)), "meaning": recall.MeaningText(q.Text)}); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
	}
	qs.write(t)
}

// A wordPart is one result of the words-only ranking, for the dump.
type wordPart struct {
	ID    string             `json:"id"`
	Rel   map[string]float64 `json:"rel"`   // relevance by list
	Boost float64            `json:"boost"` // the product of the boosts
	Terms int                `json:"terms"` // query words matched
	Raw   string             `json:"raw"`   // the words list's detail: rank and BM25 score
}

func wordParts(rs []recall.Result) []wordPart {
	var out []wordPart
	for _, r := range rs {
		p := wordPart{ID: r.Name, Rel: map[string]float64{}, Boost: 1, Terms: len(r.Why.Terms)}
		for _, x := range r.Why.Relevance {
			p.Rel[x.Name] += x.Value
			if x.Name == "words" {
				p.Raw = x.Detail
			}
		}
		for _, b := range r.Why.Boosts {
			p.Boost *= b.Value
		}
		out = append(out, p)
	}
	return out
}

// cosines returns the cosine of every memory of db to the question's
// [recall.MeaningText], by memory name.
func cosines(ctx context.Context, db *index.DB, qs *cachedQueries, question string) (map[string]float64, error) {
	cos := map[string]float64{}
	text := recall.MeaningText(question)
	if text == "" {
		return cos, nil
	}
	vec, err := qs.EmbedQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	hits, err := db.Nearest(ctx, index.NearQuery{Vector: vec, Model: qs.ModelID(), Limit: 100000})
	if err != nil {
		return nil, err
	}
	heads, err := db.Heads(ctx, hitIDs(hits))
	if err != nil {
		return nil, err
	}
	name := map[int64]string{}
	for _, h := range heads {
		name[h.ID] = h.Name
	}
	for _, h := range hits {
		cos[name[h.ID]] = h.Score
	}
	return cos, nil
}

func hitIDs(hits []index.Hit) []int64 {
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}

// TestLoCoMoDumpTexts embeds the turns of the development file as each of
// a few texts and writes the cosine of every turn to each question, as
// JSON lines to MNEMO_TUNE_DUMP_TEXTS, for trying what to embed offline.
func TestLoCoMoDumpTexts(t *testing.T) {
	dir, out := os.Getenv("MNEMO_TUNE_DIR"), os.Getenv("MNEMO_TUNE_DUMP_TEXTS")
	if dir == "" || out == "" {
		t.Skip("MNEMO_TUNE_DIR or MNEMO_TUNE_DUMP_TEXTS not set")
	}
	ctx := context.Background()
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := embed.Load()
	if err != nil {
		t.Fatal(err)
	}
	qs := &cachedQueries{m: m, path: filepath.Join(dir, "queries.json")}
	qs.read()
	defer qs.write(t)
	variants := map[string]func(Turn) string{
		"speaker": func(t Turn) string { return t.Speaker + ": " + t.Text + caption(t) },
		"text":    func(t Turn) string { return t.Text + caption(t) },
		"nocap":   func(t Turn) string { return t.Text },
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, c := range convs {
		var turns []Turn
		for _, s := range c.Sessions {
			turns = append(turns, s.Turns...)
		}
		vecs := map[string][][]float32{}
		for name, v := range variants {
			texts := make([]string, len(turns))
			for i, t := range turns {
				texts[i] = v(t)
			}
			if vecs[name], err = m.Embed(ctx, texts); err != nil {
				t.Fatal(err)
			}
		}
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 {
				continue
			}
			cos := map[string]map[string]float64{}
			for _, qt := range []string{recall.MeaningText(q.Text), q.Text} {
				if qt == "" {
					continue
				}
				qv, err := qs.EmbedQuery(ctx, qt)
				if err != nil || qv == nil {
					continue
				}
				for name, vs := range vecs {
					key := name
					if qt == q.Text {
						key += "+rawq"
					}
					cos[key] = map[string]float64{}
					for i, v := range vs {
						if v != nil {
							cos[key][turnName(turns[i].ID)] = embed.Cosine(qv, v)
						}
					}
				}
			}
			if err := enc.Encode(map[string]any{"conv": c.ID, "q": q.Text, "cos": cos}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func caption(t Turn) string {
	if t.Caption == "" {
		return ""
	}
	return " (shared an image: " + t.Caption + ")"
}
