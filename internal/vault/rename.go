package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Rename gives the memory old the name new and rewrites every [[old]]
// link of the vault's memories to [[new]], holding the lock, then
// regenerates MEMORY.md. It refuses a name that is taken. The new file is
// written before the old one is removed, so a failure part way leaves
// both, never neither, and the same Rename again finishes it: a new file
// that holds the old memory renamed, byte for byte, is taken as its own
// first step.
func (v *Vault) Rename(ctx context.Context, old, new string) error {
	if !memory.ValidName(new) {
		return fmt.Errorf("vault: %q is not a memory name", new)
	}
	unlock, err := v.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := v.load(old)
	if err != nil {
		return err
	}
	m = m.Clone()
	m.Name = new
	m.Body = relink(m.Body, old, new)
	if err := v.CreateLocked(m); err != nil && !v.renamedTo(new, m, err) {
		return err
	}
	if err := v.relinkLocked(old, new, old, new); err != nil {
		return fmt.Errorf("vault: rename %s: %w", old, err)
	}
	if err := v.RemoveLocked(old); err != nil {
		return err
	}
	return v.ReindexAfter(new)
}

// renamedTo reports whether err, from writing m as the renamed memory,
// is only that an earlier Rename wrote the file already: it holds m's
// very bytes.
func (v *Vault) renamedTo(new string, m *memory.Memory, err error) bool {
	if !errors.Is(err, ErrExists) {
		return false
	}
	have, rerr := v.load(new)
	return rerr == nil && bytes.Equal(have.Render(), m.Render())
}

// relinkLocked rewrites the [[old]] links of the vault's memories to
// [[new]], leaving out the memories named in skip; the caller holds the
// lock.
func (v *Vault) relinkLocked(old, new string, skip ...string) error {
	entries, _ := v.List()
	for _, e := range entries {
		if slices.Contains(skip, e.Name) || !strings.Contains(e.Memory.Body, "[["+old+"]]") {
			continue
		}
		if _, err := v.UpdateLocked(e.Name, func(m *memory.Memory) error {
			m.Body = relink(m.Body, old, new)
			return nil
		}); err != nil {
			return fmt.Errorf("relink %s: %w", e.Name, err)
		}
	}
	return nil
}

// relink rewrites the [[old]] links of a body to [[new]].
func relink(body, old, new string) string {
	return strings.ReplaceAll(body, "[["+old+"]]", "[["+new+"]]")
}
