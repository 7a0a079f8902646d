package consolidate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// BenchmarkPruneYear prunes a synthetic year of records: five sessions a
// day, each saying three memories again and drafting two facts (one in
// two contradicting a memory), every draft reviewed within a week (two in
// five approved), a memory forgotten a week. It reports the files' sizes
// before and after, and the time of a prune that only counts.
func BenchmarkPruneYear(b *testing.B) {
	ctx := context.Background()
	in, err := OpenInbox(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	kept := map[string]bool{}
	for i := range 300 {
		kept[fmt.Sprintf("memory-%d", i)] = true
	}
	start := t0
	excerpt := strings.Repeat("user: the deploy goes through make, see the Makefile; ", 12)[:MaxExcerpt]
	type pending struct {
		name string
		due  time.Time
	}
	var open []pending
	for day := range 365 {
		now := start.Add(time.Duration(day) * 24 * time.Hour)
		for s := range 5 {
			at := now.Add(time.Duration(s) * time.Hour)
			for range 3 {
				m := fmt.Sprintf("memory-%d", r.IntN(300))
				if err := in.Sight(ctx, Sighting{Memory: m, Where: "project", Action: Duplicate, Source: "session:s", Confidence: 0.8,
					Why: "Said again in a session.", Said: "The deploy goes through make deploy from a clean tree", At: at}); err != nil {
					b.Fatal(err)
				}
			}
			for d := range 2 {
				name := fmt.Sprintf("draft-%d-%d-%d", day, s, d)
				if err := in.Sight(ctx, Sighting{Memory: name, Where: "inbox", Action: Drafted, Source: "session:s", Confidence: 0.6,
					Said: "The deploy goes through just deploy", At: at, Reasons: []Reason{ReasonInferred}, Excerpt: excerpt}); err != nil {
					b.Fatal(err)
				}
				if d == 0 {
					if err := in.link(ctx, Link{Draft: name, Memory: "memory-1", Where: "project", Kind: LinkContradicts, At: at}); err != nil {
						b.Fatal(err)
					}
				}
				open = append(open, pending{name, at.Add(time.Duration(1+r.IntN(7)) * 24 * time.Hour)})
			}
		}
		var still []pending
		for _, p := range open {
			if p.due.After(now) {
				still = append(still, p)
				continue
			}
			if r.IntN(5) < 2 {
				kept[p.name] = true // approved under its name
			}
			if err := in.closeLink(ctx, p.name, p.due); err != nil {
				b.Fatal(err)
			}
		}
		open = still
		if day%7 == 0 {
			kept[fmt.Sprintf("forgotten-%d", day)] = true // a memory moved to forgotten/ keeps its name there
		}
	}
	for _, p := range open { // the drafts still waiting at the year's end
		putDraft(b, in, p.name, p.due.Add(-7*24*time.Hour))
	}
	names := func() (map[string]bool, error) { return kept, nil }
	end := start.Add(365 * 24 * time.Hour)
	b.ResetTimer()
	for b.Loop() {
		if _, err := in.PruneRecords(ctx, names, end, false); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p, err := in.PruneRecords(ctx, names, end, true)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(p.Sightings.Before), "provenance-bytes-before")
	b.ReportMetric(float64(p.Sightings.After), "provenance-bytes-after")
	b.ReportMetric(float64(p.Links.Before), "links-bytes-before")
	b.ReportMetric(float64(p.Links.After), "links-bytes-after")
	if fi, err := os.Stat(in.provenance); err == nil && fi.Size() != p.Sightings.After {
		b.Errorf("provenance.jsonl is %d bytes, the prune said %d", fi.Size(), p.Sightings.After)
	}
}
