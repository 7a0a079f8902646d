package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/provenance"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// nativesFile keeps, in the state folder, the last check of the memory
// files written outside mnemo, with the stamp of the vaults it checked.
const nativesFile = "natives.json"

type nativesCheck struct {
	Stamp   string              `json:"stamp"`
	Natives []provenance.Native `json:"natives"`
	Keys    []index.Key         `json:"keys"` // of Natives, in order
	// Conflicted are the project vault's memory files that a git merge
	// left in conflict: found in the same pass, so that a session start
	// does not read every file to look for them.
	Conflicted []string `json:"conflicted,omitempty"`
}

// natives returns the memory files of both vaults that no one reviewed,
// checked for instructions and secrets (package provenance), by key. The
// check runs again only when a vault's folder changed since the last one:
// a file created, removed or renamed (every write of mnemo's is a rename,
// and a file Claude Code writes is a new name); an edit in place leaves
// the last check standing until then. MEMORY.md is then regenerated from
// the files, which leaves such files (and Claude Code's lines for them)
// out, and every line that git brought but no file holds.
func natives(ctx context.Context, w *world) (map[index.Key]provenance.Native, nativesCheck) {
	path := filepath.Join(w.state, nativesFile)
	stamp := folderStamp(w.sources())
	var c nativesCheck
	if data, err := os.ReadFile(path); err != nil || json.Unmarshal(data, &c) != nil || c.Stamp != stamp {
		c = checkNatives(ctx, w)
		c.Stamp = folderStamp(w.sources()) // after the check, which may have rewritten MEMORY.md
		if data, err := json.Marshal(c); err == nil {
			if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
				w.log.Warn("keep the check of native writes", "err", err)
			}
		}
	}
	byKey := make(map[index.Key]provenance.Native, len(c.Natives))
	for i, n := range c.Natives {
		if i < len(c.Keys) {
			byKey[c.Keys[i]] = n
		}
	}
	return byKey, c
}

// checkNatives lists the vaults and checks their unreviewed files: every
// such file of the project and user vaults; of a mounted vault (someone
// else's checkout, which has no record of mnemo's writes and vouches by
// header) the files that give an instruction git would not vouch for, or
// hold a secret.
func checkNatives(ctx context.Context, w *world) nativesCheck {
	var c nativesCheck
	secrets := redact.New(redact.Options{})
	for _, src := range []struct {
		name, dir, state string
	}{
		{"project", w.vault, w.state},
		{"user", w.env.UserVaultDir(), w.env.UserStateDir()},
	} {
		v, err := vault.Open(src.dir, vault.LockPath(src.state))
		if err != nil {
			continue // no such vault: nothing written there
		}
		// Regenerated when it holds natives, or when it is not what the
		// files make (a MEMORY.md that arrived through git may list what
		// no file holds, and the hooks give its lines); checked first, so
		// that a hook waits for no writer's lock when it is current.
		if entries, n := c.add(w, src.name, v, secrets, false); n > 0 || v.IndexStale(entries) {
			if err := v.Reindex(ctx); err != nil {
				w.log.Warn("regenerate MEMORY.md from the files", "vault", src.name, "err", err)
			}
		}
	}
	ms, _ := w.p.Mounts() // an unreadable list is logged by the sync
	for _, m := range ms {
		if v, err := vault.Open(m.Dir, ""); err == nil {
			c.add(w, m.Name, v, secrets, true) // read-only: its MEMORY.md is never written
		}
	}
	c.Conflicted = vault.Conflicted(w.vault)
	return c
}

// add lists the vault named source and adds its unreviewed files to c;
// with plantedOnly, only those that hold an instruction or a secret. It
// returns the listing and how many files it added.
func (c *nativesCheck) add(w *world, source string, v *vault.Vault, secrets provenance.SecretFinder, plantedOnly bool) (entries []vault.Entry, added int) {
	entries, _ = v.List()
	ms := make([]*memory.Memory, len(entries))
	for i, e := range entries {
		ms[i] = e.Memory
	}
	for _, n := range provenance.Natives(ms, secrets) {
		if plantedOnly && !n.Planted() {
			continue
		}
		c.Natives = append(c.Natives, n)
		c.Keys = append(c.Keys, index.Key{Source: source, Name: n.Name})
		added++
		if n.Planted() {
			w.log.Warn("a memory file written outside mnemo "+n.Problem(), "vault", source, "name", n.Name)
		}
	}
	return entries, added
}

// reviewed drops from docs the memories no one reviewed: they are not
// given to the agent unasked.
func reviewed(docs []index.Doc, native map[index.Key]provenance.Native) []index.Doc {
	if len(native) == 0 {
		return docs
	}
	out := docs[:0:0]
	for _, d := range docs {
		if _, ok := native[d.Key]; !ok {
			out = append(out, d)
		}
	}
	return out
}
