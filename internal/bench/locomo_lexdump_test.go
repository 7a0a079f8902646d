package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// TestLoCoMoDumpWords writes, for each conversation of the development
// file, the stems of every turn's memory by column (as the word index
// holds them) and, for each question, the stems of its words with and
// without stop words, as JSON lines to MNEMO_TUNE_DUMP_WORDS: for trying
// the word side of the ranking (column weights, which words are
// searched, feedback from the first hits) offline.
func TestLoCoMoDumpWords(t *testing.T) {
	out := os.Getenv("MNEMO_TUNE_DUMP_WORDS")
	if out == "" {
		t.Skip("MNEMO_TUNE_DUMP_WORDS not set")
	}
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, c := range convs {
		if err := enc.Encode(dumpConversation(c)); err != nil {
			t.Fatal(err)
		}
	}
}

// A dumpDoc is one turn's memory as the word index sees it.
type dumpDoc struct {
	Name    string              `json:"name"`
	Cols    map[string][]string `json:"cols"` // stems by column, context left out (the neighbours' descriptions)
	Updated time.Time           `json:"updated"`
}

// A dumpQuestion is one question's words.
type dumpQuestion struct {
	Text     string     `json:"q"`
	Category int        `json:"cat"`
	Evidence []string   `json:"evidence"`
	Terms    []string   `json:"terms"` // recall.Terms
	Stems    [][]string `json:"stems"` // index.Words of each term
	All      []string   `json:"all"`   // every word's stem, stop words too, in order
	Raw      []string   `json:"raw"`   // every word, lower-cased, in order
	Subs     []string   `json:"subs"`  // recall.Substrings
}

func dumpConversation(c Conversation) map[string]any {
	var all []Turn
	var dates []time.Time
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			all = append(all, t)
			dates = append(dates, s.Date)
		}
	}
	docs := make([]dumpDoc, len(all))
	for i, t := range all {
		name := turnName(t.ID)
		d := dumpDoc{Name: name, Updated: dates[i], Cols: map[string][]string{
			"name": index.Words(name), "description": index.Words(describe(t)),
			"body": index.Words(turnBody(all, i)), "tags": index.Words(t.Speaker),
		}}
		docs[i] = d
	}
	var qs []dumpQuestion
	for _, q := range c.Questions {
		if len(q.Evidence) == 0 {
			continue
		}
		dq := dumpQuestion{Text: q.Text, Category: q.Category, Terms: recall.Terms(q.Text),
			All: index.Words(q.Text), Subs: recall.Substrings(q.Text)}
		for _, id := range q.Evidence {
			dq.Evidence = append(dq.Evidence, turnName(id))
		}
		for _, term := range dq.Terms {
			dq.Stems = append(dq.Stems, index.Words(term))
		}
		for _, f := range strings.Fields(q.Text) {
			dq.Raw = append(dq.Raw, recall.Terms(f)...) // a field of stop words only keeps them
		}
		qs = append(qs, dq)
	}
	return map[string]any{"conv": c.ID, "now": lastDate(c).Add(24 * time.Hour), "docs": docs, "questions": qs}
}

// TestLoCoMoDumpSentences embeds each sentence of each turn ("Speaker:
// sentence") and a few forms of each question, and writes the cosine of
// every sentence to each form, as JSON lines to MNEMO_TUNE_DUMP_SENTENCES:
// for trying recall by meaning on parts of a memory offline.
func TestLoCoMoDumpSentences(t *testing.T) {
	dir, out := os.Getenv("MNEMO_TUNE_DIR"), os.Getenv("MNEMO_TUNE_DUMP_SENTENCES")
	if dir == "" || out == "" {
		t.Skip("MNEMO_TUNE_DIR or MNEMO_TUNE_DUMP_SENTENCES not set")
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
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	enc := json.NewEncoder(f)
	for _, c := range convs {
		var names, texts []string
		for _, s := range c.Sessions {
			for _, turn := range s.Turns {
				for _, sent := range sentences(turn.Text) {
					names, texts = append(names, turnName(turn.ID)), append(texts, turn.Speaker+": "+sent)
				}
				if turn.Caption != "" {
					names, texts = append(names, turnName(turn.ID)), append(texts, turn.Speaker+": (shared an image: "+turn.Caption+")")
				}
			}
		}
		vecs, err := m.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		speakers := map[string]bool{}
		for _, s := range c.Sessions {
			for _, turn := range s.Turns {
				speakers[strings.ToLower(turn.Speaker)] = true
			}
		}
		for _, q := range c.Questions {
			if len(q.Evidence) == 0 {
				continue
			}
			forms := map[string]string{"meaning": recall.MeaningText(q.Text), "raw": q.Text}
			var kept []string
			for _, w := range strings.Fields(forms["meaning"]) {
				if !speakers[w] {
					kept = append(kept, w)
				}
			}
			forms["nonames"] = strings.Join(kept, " ")
			cos := map[string][]float64{}
			for form, text := range forms {
				if text == "" {
					continue
				}
				qv, err := qs.EmbedQuery(ctx, text)
				if err != nil || qv == nil {
					continue
				}
				for _, v := range vecs {
					x := 0.0
					if v != nil {
						x = embed.Cosine(qv, v)
					}
					cos[form] = append(cos[form], x)
				}
			}
			if err := enc.Encode(map[string]any{"conv": c.ID, "q": q.Text, "names": names, "cos": cos}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// sentences cuts text after each '.', '!' or '?' that a space follows.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		if strings.IndexByte(".!?", text[i]) >= 0 && (i+1 == len(text) || text[i+1] == ' ') {
			if s := strings.TrimSpace(text[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(text[start:]); s != "" {
		out = append(out, s)
	}
	return out
}
