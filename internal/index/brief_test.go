package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTop checks Top, which reads the recalled memories and then walks the
// brief index, against the plain query that sorts every memory, on vaults
// of random types, confidences, dates, statuses and recall counts.
func TestTop(t *testing.T) {
	ctx := context.Background()
	types := []string{"user", "feedback", "project", "reference"}
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 7))
		db := mustOpen(t)
		dir := t.TempDir()
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := range 120 {
			name := fmt.Sprintf("m%03d", i)
			s := fmt.Sprintf("---\nname: %s\ndescription: memory %s\ntype: %s\nconfidence: %.1f\nupdated: %s\n",
				name, name, types[rng.IntN(len(types))], float64(5+rng.IntN(3))/10, // many ties
				t0.Add(time.Duration(rng.IntN(5))*24*time.Hour).Format(time.RFC3339))
			if rng.IntN(6) == 0 {
				s += "status: superseded\nsuperseded_by: m000\n"
			}
			s += "---\nbody\n"
			writeFile(t, dir, name+".md", s)
		}
		if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
			t.Fatal(err)
		}
		for i := range 120 {
			if rng.IntN(4) == 0 {
				k := Key{Source: "project", Name: fmt.Sprintf("m%03d", i)}
				for range 1 + rng.IntN(3) {
					if err := db.RecordRecall(ctx, t0, k); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		want, err := db.ids(ctx, `SELECT m.id FROM memories m
			LEFT JOIN recall_stats r ON r.source = m.source AND r.name = m.name
			WHERE m.status != 'superseded'
			ORDER BY m.type IN ('feedback', 'user') DESC, coalesce(r.times, 0) DESC,
				m.confidence DESC, m.updated DESC, m.name, m.source`)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) < 80 {
			t.Fatalf("seed %d: only %d active memories", seed, len(want))
		}
		for _, n := range []int{1, 5, 40, len(want), len(want) + 10} {
			docs, err := db.Top(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]int64, len(docs))
			for i, d := range docs {
				got[i] = d.ID
			}
			if w := want[:min(n, len(want))]; !slices.Equal(got, w) {
				t.Errorf("seed %d: Top(%d) = %v\nwant %v", seed, n, got, w)
			}
		}
	}
}
