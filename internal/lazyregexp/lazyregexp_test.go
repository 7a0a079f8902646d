package lazyregexp

import (
	"sync"
	"testing"
)

func TestLazy(t *testing.T) {
	r := New(`(\w+)@(\w+)`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := r.FindStringSubmatch("me@host"); len(got) != 3 || got[2] != "host" {
				t.Errorf("FindStringSubmatch = %q", got)
			}
		})
	}
	wg.Wait()
	if !r.MatchString("a@b") || r.MatchString("ab") {
		t.Errorf("MatchString wrong")
	}
}
