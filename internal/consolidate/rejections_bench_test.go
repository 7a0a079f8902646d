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
				r := rejection{Name: fmt.Sprintf("r%d", i), Description: fmt.Sprintf("The gadget port for service hk%d is %d", i, 1000+i), Body: "Found in the service's config file, next to the other settings.", At: t0}
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
