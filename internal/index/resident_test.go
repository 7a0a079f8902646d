package index_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// TestResidentSameResults: a handle that keeps every row in memory
// (KeepResident, as the MCP server does) and a handle that searched
// before (what its word searches read is kept by generation) return what
// a handle opened anew returns, to the bit: recall's memories, scores and
// reasons, and every head and document; while the rows are being read,
// after recalls were recorded (statistics change on every recall, in any
// process), and after a sync changed, added and removed memories.
func TestResidentSameResults(t *testing.T) {
	ctx := context.Background()
	dir, state := t.TempDir(), t.TempDir()
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		writeMemory(t, dir, r, i)
	}
	open := func() *index.DB {
		db, err := index.Open(ctx, filepath.Join(state, index.FileName), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	plain, kept := open(), open()
	kept.KeepResident()
	src := index.Source{Name: "project", Dir: dir}
	sync := func() {
		t.Helper()
		if _, err := plain.Sync(ctx, src); err != nil {
			t.Fatal(err)
		}
	}
	sync()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	queries := make([]recall.Query, 60)
	for i := range queries {
		queries[i] = recall.Query{Text: words(r, 2+r.IntN(4)), Limit: 1 + r.IntN(12), Now: now}
		if i%7 == 0 {
			queries[i].Types = []memory.Type{memory.TypeProject}
		}
	}
	compare := func(stage string) {
		t.Helper()
		fresh := open()
		for _, q := range queries {
			want, err := recall.New(fresh, recall.DefaultConfig()).Recall(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, db := range []*index.DB{plain, kept} {
				got, err := recall.New(db, recall.DefaultConfig()).Recall(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: Recall(%q) = %+v\nwant %+v", stage, q.Text, got, want)
				}
			}
		}
		ids := make([]int64, 400)
		for i := range ids {
			ids[i] = int64(i)
		}
		for _, read := range []struct {
			name string
			f    func(*index.DB) ([]index.Doc, error)
		}{
			{"Heads", func(db *index.DB) ([]index.Doc, error) { return db.Heads(ctx, ids) }},
			{"Docs", func(db *index.DB) ([]index.Doc, error) { return db.Docs(ctx, ids) }},
		} {
			want, err := read.f(fresh)
			if err != nil {
				t.Fatal(err)
			}
			got, err := read.f(kept)
			if err != nil {
				t.Fatal(err)
			}
			if read.name == "Heads" { // a kept head comes whole
				for i := range got {
					got[i] = head(got[i])
				}
			}
			if !reflect.DeepEqual(byID(got), byID(want)) {
				t.Fatalf("%s: %s differ from the file's", stage, read.name)
			}
		}
	}
	compare("before the rows are read")
	waitResident(t, kept)
	compare("rows kept")

	// Recalls recorded by another handle change the statistics.
	for _, q := range queries[:20] {
		res, err := recall.New(plain, recall.DefaultConfig()).Recall(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range res {
			if err := plain.RecordRecall(ctx, now, x.Key); err != nil {
				t.Fatal(err)
			}
		}
	}
	compare("after recalls were recorded")

	// A sync moves the generation on: edited, added and removed files.
	for i := range 30 {
		writeMemory(t, dir, r, i*7)
	}
	for i := 300; i < 320; i++ {
		writeMemory(t, dir, r, i)
	}
	for i := 1; i < 60; i += 9 {
		if err := os.Remove(filepath.Join(dir, name(i)+".md")); err != nil {
			t.Fatal(err)
		}
	}
	gen, _ := kept.ResidentAt()
	sync()
	compare("after a sync, the old rows kept")
	waitResident(t, kept)
	if now, _ := kept.ResidentAt(); now == gen {
		t.Fatalf("the rows kept are still of generation %d", gen)
	}
	compare("after a sync, the new rows kept")
}

// waitResident waits until db keeps the rows of the index's generation.
func waitResident(t *testing.T, db *index.DB) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := db.Heads(ctx, []int64{1}); err != nil { // starts the read
			t.Fatal(err)
		}
		before, _ := db.ResidentAt()
		if _, err := db.Heads(ctx, []int64{1}); err != nil {
			t.Fatal(err)
		}
		if gen, loading := db.ResidentAt(); gen != 0 && gen == before && !loading {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the rows were not kept within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// head is what Heads reads of d from the file.
func head(d index.Doc) index.Doc {
	return index.Doc{ID: d.ID, Key: d.Key, Type: d.Type, Confidence: d.Confidence, Status: d.Status,
		SupersededBy: d.SupersededBy, Created: d.Created, Updated: d.Updated, Recalls: d.Recalls,
		LastRecalled: d.LastRecalled, Stems: d.Stems}
}

func byID(docs []index.Doc) map[int64]index.Doc {
	m := make(map[int64]index.Doc, len(docs))
	for _, d := range docs {
		m[d.ID] = d
	}
	return m
}

var vocabulary = strings.Fields(`deploy deploys deploying release branch cache queue worker token session
	schema migration index lockfile retry timeout flaky fixture handler route proxy gateway metric alert
	runbook incident budget quota batch stream topic consumer webhook payload template`)

func words(r *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(ws, " ")
}

func name(i int) string { return fmt.Sprintf("m%03d", i) }

// writeMemory writes memory i with random words, type, dates and links.
func writeMemory(t *testing.T, dir string, r *rand.Rand, i int) {
	t.Helper()
	types := []memory.Type{memory.TypeUser, memory.TypeFeedback, memory.TypeProject, memory.TypeReference}
	body := words(r, 10+r.IntN(30)) + "."
	if i > 0 && r.IntN(3) == 0 {
		body += fmt.Sprintf(" See [[%s]].", name(r.IntN(i)))
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	m := memory.New(memory.Header{
		Name: name(i), Description: words(r, 4+r.IntN(6)), Type: types[r.IntN(len(types))],
		Created: at.AddDate(0, 0, -r.IntN(300)), Updated: at.AddDate(0, 0, -r.IntN(30)),
		Source: "manual", Confidence: 0.5 + 0.5*r.Float64(), Tags: strings.Fields(words(r, r.IntN(3))),
	}, body)
	if err := os.WriteFile(filepath.Join(dir, name(i)+".md"), m.Render(), 0o644); err != nil {
		t.Fatal(err)
	}
}
