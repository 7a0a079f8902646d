package cli

import (
	"context"
	"path/filepath"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// uiGrepBudget bounds the identifier lookups of one check from the page,
// like 'mnemo verify --grep-budget'.
const uiGrepBudget = time.Second

// uiChecker is the page's [web.Checker]: 'mnemo verify' for one memory at
// a time, on the project's repository and index.
type uiChecker struct{ f *Factory }

// verifier opens the index and a Verifier over its hash cache; done saves
// the cache and closes the index.
func (c uiChecker) verifier(ctx context.Context) (vf *staleness.Verifier, db *index.DB, done func(), err error) {
	p, err := c.f.Project()
	if err != nil {
		return nil, nil, nil, err
	}
	db, err = index.Open(ctx, filepath.Join(p.StateDir(), index.FileName), nil)
	if err != nil {
		return nil, nil, nil, err
	}
	cache, err := db.HashCache(ctx)
	if err != nil {
		db.Close()
		return nil, nil, nil, err
	}
	vf = &staleness.Verifier{Root: p.Root, InGit: p.InGit(), Head: p.Head(ctx), Cache: cache, GrepBudget: uiGrepBudget,
		Vault: staleness.VaultPath(p.Root, p.VaultDir())}
	return vf, db, func() { cache.Save(ctx); db.Close() }, nil
}

func (c uiChecker) Check(ctx context.Context, m *memory.Memory) staleness.Result {
	vf, _, done, err := c.verifier(ctx)
	if err != nil {
		return staleness.Result{}
	}
	defer done()
	return vf.Verify(ctx, m)
}

func (c uiChecker) Record(ctx context.Context, where, name string, r staleness.Result) error {
	_, db, done, err := c.verifier(ctx)
	if err != nil {
		return err
	}
	defer done()
	return db.SetVerdicts(ctx, c.f.Now(), index.Verdict{Key: index.Key{Source: where, Name: name}, State: string(r.State), Reasons: r.Reasons})
}

func (c uiChecker) Reanchor(ctx context.Context, m *memory.Memory) (*memory.Memory, bool) {
	p, err := c.f.Project()
	if err != nil {
		return m, false
	}
	return staleness.Fix(p.Root, p.Head(ctx), m, staleness.Result{})
}
