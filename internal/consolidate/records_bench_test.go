package consolidate

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// BenchmarkAddAmongRejections adds a fact to a project whose team has
// rejected many others: every candidate is compared with every rejection.
func BenchmarkAddAmongRejections(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			e := setup(b)
			f, err := os.Create(e.c.Inbox.rejected)
			if err != nil {
				b.Fatal(err)
			}
			enc := json.NewEncoder(f)
			for i := range n {
				r := Rejection{Name: fmt.Sprintf("r%d", i), Description: fmt.Sprintf("The gadget port for service hk%d is %d", i, 1000+i), Body: "Found in the service's config file, next to the other settings.", At: t0}
				if err := enc.Encode(r); err != nil {
					b.Fatal(err)
				}
			}
			f.Close()
			b.ResetTimer()
			for i := range b.N {
				fact := Fact{Description: fmt.Sprintf("The widget cache for job w%d holds %d entries", i, i), Body: "Seen in the job's settings.", Confidence: 0.6, Source: "session:s1"}
				if _, err := e.c.Add(e.ctx, fact); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkInboxReasons lists why each of 50 drafts is one, with a year
// of sightings recorded (20,000).
func BenchmarkInboxReasons(b *testing.B) {
	e := setup(b)
	for i := range 50 {
		f := Fact{Description: fmt.Sprintf("The widget cache for job w%d holds %d entries", i, i), Body: "Seen in the job's settings.", Confidence: 0.6, Source: "session:s1"}
		if o, err := e.c.Add(e.ctx, f); err != nil || o.Action != Drafted {
			b.Fatalf("Add = %+v, %v; want drafted", o, err)
		}
	}
	for i := range 20000 {
		s := Sighting{Memory: fmt.Sprintf("m%d", i%500), Where: "project", Action: Duplicate, Source: "session:s1", At: t0, Said: "The gadget port for service hk3 is 93, found in the service's config."}
		if err := e.c.Inbox.Sight(e.ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	ds, err := e.c.Inbox.List()
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		for _, d := range ds {
			if rs := e.c.Inbox.Reasons(d, Link{}); len(rs) == 0 {
				b.Fatalf("no reason for %s", d.Name)
			}
		}
	}
}
