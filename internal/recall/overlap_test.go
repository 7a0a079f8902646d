package recall

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/embed"
)

// TestOverlapSameResults: embedding the query while the words are
// searched, through a cache, or both, returns exactly what embedding it
// after the words returns: the same memories, scores and reasons. With
// the model's matrices decoded once (embed.LoadResident) the vectors
// differ by float rounding, so the scores may move by that much: where
// the processor converts float16, the resident matrices are float16,
// which moves a vector by a cosine of up to 5e-7 and these scores (their
// dense part min-max normalised) by up to 5.5e-4; tol allows 2e-3.
func TestOverlapSameResults(t *testing.T) {
	serial := semanticEngine(t)
	serial.serial = true
	stream := serial.cfg.Semantic
	resident, err := embed.LoadResident()
	if err != nil {
		t.Fatal(err)
	}
	with := func(inTurn bool, m QueryEmbedder) *Engine {
		e := *serial // the same index
		e.cfg.Semantic, e.serial = m, inTurn
		return &e
	}
	engines := []struct {
		name string
		e    *Engine
		tol  float64 // how far a score may move; 0: not at all, and the reasons are the same
	}{
		{"overlapped", with(false, stream), 0},
		{"overlapped, cached", with(false, NewQueryCache(stream, 4)), 0},
		{"serial, cached", with(true, NewQueryCache(stream, 4)), 0},
		{"overlapped, resident", with(false, resident), 2e-3},
		{"overlapped, resident, cached", with(false, NewQueryCache(resident, 4)), 2e-3},
	}
	queries := []Query{
		{Text: "statistics must be checked"},           // meaning alone
		{Text: "deploy by hand"},                       // words and meaning
		{Text: "部署脚本"},                                 // unreadable: words alone
		{Text: "the of and"},                           // nothing to embed
		{Text: "deploy", Files: []string{"deploy.sh"}}, // files too
		{Text: "kitten napping", Limit: 1},             // cut short
		{Text: "statistics must be checked"},           // again: from the cache
		{Text: "timestamps parsing", Limit: 2},
	}
	ctx := context.Background()
	for _, en := range engines {
		t.Run(en.name, func(t *testing.T) {
			for _, q := range queries {
				q.Now = now
				want, err := serial.Recall(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				got, err := en.e.Recall(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !sameResults(got, want, en.tol) {
					t.Errorf("Recall(%q) = %v, want %v as embedded after the words", q.Text, scored(got), scored(want))
				}
			}
		})
	}
}

// sameResults reports whether a and b hold the same memories in the same
// order with scores within tol; when tol is 0, whether they are equal.
func sameResults(a, b []Result, tol float64) bool {
	if tol == 0 {
		return reflect.DeepEqual(a, b)
	}
	if !slices.Equal(resultNames(a), resultNames(b)) {
		return false
	}
	for i := range a {
		if math.Abs(a[i].Score-b[i].Score) > tol {
			return false
		}
	}
	return true
}

// scored is results as name=score, for a failure message.
func scored(rs []Result) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Name+"="+strconv.FormatFloat(r.Score, 'g', -1, 64))
	}
	return out
}

// countingEmbedder embeds every text as one value, its length, counting calls.
type countingEmbedder struct {
	mu    sync.Mutex
	calls map[string]int
	fail  string // this text gets an error
}

func (c *countingEmbedder) ModelID() string { return "length" }

func (c *countingEmbedder) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[text]++
	if text == c.fail {
		return nil, errors.New("model failed")
	}
	return []float32{float32(len(text))}, nil
}

// TestQueryCache: a text embedded once is not embedded again while it is
// among the last size used; an error is not kept.
func TestQueryCache(t *testing.T) {
	tests := []struct {
		name  string
		size  int
		texts []string
		want  map[string]int // calls to the model per text
	}{
		{"repeat", 2, []string{"a", "a", "a"}, map[string]int{"a": 1}},
		{"within size", 2, []string{"a", "bb", "a", "bb"}, map[string]int{"a": 1, "bb": 1}},
		{"least recently used goes", 2, []string{"a", "bb", "a", "ccc", "a", "bb"}, map[string]int{"a": 1, "bb": 2, "ccc": 1}},
		{"exact text", 4, []string{"deploy", "Deploy", "deploy "}, map[string]int{"deploy": 1, "Deploy": 1, "deploy ": 1}},
		{"error not kept", 4, []string{"bad", "bad"}, map[string]int{"bad": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &countingEmbedder{calls: map[string]int{}, fail: "bad"}
			c := NewQueryCache(m, tt.size)
			for _, text := range tt.texts {
				v, err := c.EmbedQuery(context.Background(), text)
				if text == m.fail {
					if err == nil {
						t.Errorf("EmbedQuery(%q) = nil error, want the model's", text)
					}
					continue
				}
				if err != nil || len(v) != 1 || v[0] != float32(len(text)) {
					t.Errorf("EmbedQuery(%q) = %v, %v; want [%d]", text, v, err, len(text))
				}
			}
			if !reflect.DeepEqual(m.calls, tt.want) {
				t.Errorf("model calls = %v, want %v", m.calls, tt.want)
			}
		})
	}
}
