package vault

import (
	"context"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// SharesLock reports whether v and o are serialized by one writer lock
// (the same lock file): a caller that holds one holds the other, and must
// use the Locked methods of both, since taking the lock again would wait
// for itself.
func (v *Vault) SharesLock(o *Vault) bool { return v.lockPath == o.lockPath }

// Merge folds the memory gone into keep, two memories of one fact:
// holding the lock, it reads both as they are now, calls fn to change
// keep with gone at hand (the caller decides whose text and provenance
// the kept one gets), checks and writes keep, rewrites the [[gone]] links
// of the vault's memories to [[keep]] (as [Vault.Rename] does), and then
// takes gone out of the vault, kept and recorded as r says (see
// [Vault.MoveOut]), or, with supersede, marks it superseded by keep (fn
// may change gone too, say its updated time). It regenerates MEMORY.md.
// keep is written before gone is touched, so a failure part way loses
// neither.
func (v *Vault) Merge(ctx context.Context, keep, gone string, supersede bool, r Removal, fn func(keep, gone *memory.Memory) error) error {
	if keep == gone {
		return fmt.Errorf("vault: merge %s into itself", keep)
	}
	for _, n := range []string{keep, gone} {
		if !memory.ValidName(n) {
			return fmt.Errorf("vault: %q is not a memory name", n)
		}
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	g, err := v.load(gone)
	if err != nil {
		return err
	}
	if _, err := v.UpdateLocked(keep, func(k *memory.Memory) error {
		if err := fn(k, g); err != nil {
			return err
		}
		k.Body = relink(k.Body, gone, keep)
		return nil
	}); err != nil {
		return fmt.Errorf("vault: merge %s into %s: %w", gone, keep, err)
	}
	if err := v.relinkLocked(gone, keep, keep, gone); err != nil {
		return fmt.Errorf("vault: merge %s into %s: %w", gone, keep, err)
	}
	if !supersede {
		if _, err := v.moveOutLocked(r, gone); err != nil {
			return err
		}
		return v.ReindexAfter(keep)
	}
	if _, err := v.UpdateLocked(gone, func(m *memory.Memory) error {
		*m = *g
		m.Status, m.SupersededBy = memory.StatusSuperseded, keep
		return nil
	}); err != nil {
		return fmt.Errorf("vault: merge %s into %s: %w", gone, keep, err)
	}
	return v.ReindexAfter(keep)
}
