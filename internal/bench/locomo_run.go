package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// DefaultKs are the cut-offs LoCoMo's retrieval metric is reported at.
var DefaultKs = []int{5, 10, 25}

// A LoCoMoReport is recall@k in percent, overall and per question category.
type LoCoMoReport struct {
	Overall    map[string]float64            `json:"overall"`
	ByCategory map[string]map[string]float64 `json:"by_category"`
	Questions  int                           `json:"questions"`

	// Lists holds, with [LoCoMoOptions.Lists], the scores of each list
	// alone: "words" (the ranking without recall by meaning) and
	// "meaning" (recall by meaning without the word lists).
	Lists map[string]*LoCoMoReport `json:"lists,omitempty"`

	CategoryQuestions map[string]int `json:"-"` // questions per category
	Conversations     int            `json:"-"`
	Turns             int            `json:"-"`
	Elapsed           time.Duration  `json:"-"`
}

// LoCoMoOptions say how to run the benchmark.
type LoCoMoOptions struct {
	Ks     []int         // cut-offs; DefaultKs when empty
	Config recall.Config // the ranking; recall.DefaultConfig() is what mnemo ships
	Dir    string        // where the vaults and indexes go; a temporary folder when empty
	// Embedder embeds the turns when Config.Semantic is set.
	Embedder index.Embedder
	// Lists also scores each list alone (see [LoCoMoReport.Lists]); it
	// needs Config.Semantic.
	Lists bool
}

// rankings returns the rankings a run scores: the configured one first.
func (o LoCoMoOptions) rankings() []ranking {
	rs := []ranking{{"", o.Config}}
	if !o.Lists || o.Config.Semantic == nil {
		return rs
	}
	words := o.Config
	words.Semantic = nil
	meaning := o.Config
	meaning.WordsWeight, meaning.SubstringsWeight, meaning.FilesWeight = 0, 0, 0
	meaning.SemanticFloor = 0 // alone, the list is all there is
	return append(rs, ranking{"words", words}, ranking{"meaning", meaning})
}

// A ranking is one recall configuration a run scores, by name.
type ranking struct {
	name string
	cfg  recall.Config
}

// RunLoCoMo indexes every dialog turn of each conversation as a memory and
// asks each question with evidence through the recall engine. Recall@k is
// |evidence ∩ top k| / |evidence|, averaged over questions.
func RunLoCoMo(ctx context.Context, convs []Conversation, opts LoCoMoOptions) (*LoCoMoReport, error) {
	start := time.Now()
	ks := opts.Ks
	if len(ks) == 0 {
		ks = DefaultKs
	}
	dir := opts.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "mnemo-locomo-")
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	rankings := opts.rankings()
	scs := make([]*scorer, len(rankings))
	for i := range scs {
		scs[i] = newScorer(ks)
	}
	for _, c := range convs {
		if err := runConversation(ctx, c, filepath.Join(dir, safeName(c.ID)), opts, rankings, scs); err != nil {
			return nil, fmt.Errorf("bench: %s: %w", c.ID, err)
		}
	}
	r := scs[0].report()
	for i, rk := range rankings[1:] {
		if r.Lists == nil {
			r.Lists = make(map[string]*LoCoMoReport)
		}
		r.Lists[rk.name] = scs[i+1].report()
	}
	r.Conversations = len(convs)
	for _, c := range convs {
		for _, s := range c.Sessions {
			r.Turns += len(s.Turns)
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// runConversation builds the vault of one conversation, indexes it (with
// vectors when the ranking recalls by meaning) and scores its questions
// with each ranking.
func runConversation(ctx context.Context, c Conversation, dir string, opts LoCoMoOptions, rankings []ranking, scs []*scorer) error {
	vaultDir := filepath.Join(dir, "vault")
	ids, err := writeTurns(c, vaultDir)
	if err != nil {
		return err
	}
	db, err := index.Open(ctx, filepath.Join(dir, index.FileName), nil)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Sync(ctx, index.Source{Name: "project", Dir: vaultDir})
	if err != nil {
		return err
	}
	if len(st.Problems) > 0 {
		return fmt.Errorf("index: %w", st.Problems[0])
	}
	if opts.Config.Semantic != nil {
		if opts.Embedder == nil {
			return fmt.Errorf("recall by meaning without an embedder for the turns")
		}
		if _, err := db.EmbedMissing(ctx, opts.Embedder, nil); err != nil {
			return err
		}
	}
	now := lastDate(c).Add(24 * time.Hour)
	for i, rk := range rankings {
		e := recall.New(db, rk.cfg)
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 {
				continue
			}
			rs, err := e.Recall(ctx, recall.Query{Text: q.Text, Limit: slices.Max(scs[i].ks), Now: now})
			if err != nil {
				return err
			}
			got := make([]string, len(rs))
			for j, r := range rs {
				got[j] = ids[r.Name]
			}
			scs[i].add(q, got)
		}
	}
	return nil
}

// writeTurns writes one memory file per turn and returns the dialog id of
// each memory name. A turn's memory holds its text (and the caption of a
// shared image), its speaker as a tag, the session date as its creation
// time, and links to the turns before and after it.
func writeTurns(c Conversation, dir string) (map[string]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	ids := make(map[string]string)
	var all []Turn
	var dates []time.Time
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			all = append(all, t)
			dates = append(dates, s.Date)
		}
	}
	for i, t := range all {
		name := turnName(t.ID)
		ids[name] = t.ID
		m := memory.New(memory.Header{
			Name: name, Description: describe(t), Type: memory.TypeProject,
			Created: dates[i], Updated: dates[i], Source: "import:locomo",
			Confidence: memory.DefaultConfidence, Tags: []string{strings.ToLower(t.Speaker)},
		}, turnBody(all, i))
		if err := os.WriteFile(filepath.Join(dir, name+".md"), m.Render(), 0o644); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// turnBody is what the turn says, the image it shared, and links to its
// neighbours in the same session.
func turnBody(all []Turn, i int) string {
	t := all[i]
	var b strings.Builder
	b.WriteString(t.Speaker + ": " + t.Text + "\n")
	if t.Caption != "" {
		b.WriteString("\n(shared an image: " + t.Caption + ")\n")
	}
	var links []string
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(all) && session(all[j].ID) == session(t.ID) {
			links = append(links, "[["+turnName(all[j].ID)+"]]")
		}
	}
	if len(links) > 0 {
		b.WriteString("\nContext: " + strings.Join(links, " ") + "\n")
	}
	return b.String()
}

// describe makes a turn's description: its text, cut on a word boundary
// to fit the format's limit.
func describe(t Turn) string {
	d := strings.Join(strings.Fields(t.Text), " ")
	if d == "" {
		d = t.Caption
	}
	if utf8.RuneCountInString(d) <= memory.MaxDescriptionLen {
		return d
	}
	r := []rune(d)[:memory.MaxDescriptionLen]
	if i := strings.LastIndexByte(string(r), ' '); i > 0 {
		return string(r)[:i]
	}
	return string(r)
}

func turnName(id string) string {
	return strings.ToLower(strings.ReplaceAll(id, ":", "-"))
}

func session(id string) string {
	s, _, _ := strings.Cut(id, ":")
	return s
}

func lastDate(c Conversation) time.Time {
	var last time.Time
	for _, s := range c.Sessions {
		if s.Date.After(last) {
			last = s.Date
		}
	}
	return last
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// scorer accumulates recall@k per category.
type scorer struct {
	ks    []int
	sum   map[int][]float64 // category → per-k sum; category 0 is overall
	count map[int]int
}

func newScorer(ks []int) *scorer {
	return &scorer{ks: ks, sum: make(map[int][]float64), count: make(map[int]int)}
}

// add scores one question against the retrieved dialog ids, best first.
func (s *scorer) add(q Question, retrieved []string) {
	for _, cat := range []int{0, q.Category} {
		if s.sum[cat] == nil {
			s.sum[cat] = make([]float64, len(s.ks))
		}
		for i, k := range s.ks {
			s.sum[cat][i] += recallAt(q.Evidence, retrieved, k)
		}
		s.count[cat]++
	}
}

// recallAt is |evidence ∩ top k of retrieved| / |evidence|.
func recallAt(evidence, retrieved []string, k int) float64 {
	top := retrieved[:min(k, len(retrieved))]
	n := 0
	for _, e := range evidence {
		if slices.Contains(top, e) {
			n++
		}
	}
	return float64(n) / float64(len(evidence))
}

func (s *scorer) report() *LoCoMoReport {
	r := &LoCoMoReport{ByCategory: make(map[string]map[string]float64), Questions: s.count[0],
		CategoryQuestions: make(map[string]int)}
	for cat, sums := range s.sum {
		m := make(map[string]float64, len(s.ks))
		for i, k := range s.ks {
			m["r@"+strconv.Itoa(k)] = round1(100 * sums[i] / float64(s.count[cat]))
		}
		if cat == 0 {
			r.Overall = m
		} else {
			r.ByCategory[strconv.Itoa(cat)] = m
			r.CategoryQuestions[strconv.Itoa(cat)] = s.count[cat]
		}
	}
	if r.Overall == nil {
		r.Overall = map[string]float64{}
	}
	return r
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }
