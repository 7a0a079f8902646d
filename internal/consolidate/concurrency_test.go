package consolidate

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// TestConcurrentDraftsKeepEveryFact: writers in several processes (here,
// consolidators with their own vault handles on one lock file) drafting
// facts that slug to one name each get a name of their own; no draft
// replaces another.
func TestConcurrentDraftsKeepEveryFact(t *testing.T) {
	e := setup(t)
	const writers, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		pv, err := vault.Open(e.c.Project.Dir, filepath.Join(filepath.Dir(e.c.Inbox.Dir), "vault.lock"))
		if err != nil {
			t.Fatal(err)
		}
		c := *e.c
		c.Project = pv
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				m := memory.New(memory.Header{Name: "gadget-port", Description: fmt.Sprintf("Gadget port %d-%d", w, i),
					Type: memory.TypeProject, Created: t0}, "x")
				if _, err := c.draft(e.ctx, m); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if ds, _ := e.c.Inbox.List(); len(ds) != writers*each {
		t.Errorf("the inbox holds %d drafts, want %d: drafts replaced one another", len(ds), writers*each)
	}
}
