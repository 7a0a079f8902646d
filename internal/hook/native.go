package hook

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

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

// A review is what a hook knows of which memories no one reviewed.
type review struct {
	native map[index.Key]provenance.Native // the last check's, by key
	check  nativesCheck
	edited func(index.Key) bool // see [world.editedUnreviewed]
}

// unreviewed reports whether the memory k is not to be given unasked: the
// last check found no one reviewed it, or it was written in place since
// and mnemo cannot vouch for it now.
func (r review) unreviewed(k index.Key) bool {
	_, ok := r.native[k]
	return ok || r.edited(k)
}

// natives returns the memory files of both vaults that no one reviewed,
// checked for instructions and secrets (package provenance), by key. The
// check runs again only when a vault's folder changed since the last one:
// a file created, removed or renamed (every write of mnemo's is a rename,
// and a file Claude Code writes is a new name); a file written in place
// since is read again when it is about to be given ([review.unreviewed]).
// MEMORY.md is then regenerated from the files, which leaves such files
// (and Claude Code's lines for them) out, and every line that git brought
// but no file holds.
func natives(ctx context.Context, w *world) review {
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
	checked := w.now // no record of the check: every file is read again
	if fi, err := os.Stat(path); err == nil {
		checked = fi.ModTime()
	}
	return review{native: byKey, check: c, edited: w.editedUnreviewed(checked, path)}
}

// editedUnreviewed returns a test for what a check of the natives made at
// checked cannot know: a project or user memory file written in place
// since (an agent's Write or Edit tool, a shell's '>'), which leaves its
// folder, and so the check, as they were. Such a file is read again, and
// fails the test when mnemo cannot vouch for it now; the check kept at
// path is then dropped, so that the next hook checks every file again.
func (w *world) editedUnreviewed(checked time.Time, path string) func(index.Key) bool {
	vaults := make(map[string]*vault.Vault)
	seen := make(map[index.Key]bool)
	return func(k index.Key) bool {
		if bad, ok := seen[k]; ok {
			return bad
		}
		dir, state := w.vault, w.state
		switch k.Source {
		case "project":
		case "user":
			dir, state = w.env.UserVaultDir(), w.env.UserStateDir()
		default:
			return false // a mounted vault is reviewed where it lives
		}
		fi, err := os.Stat(filepath.Join(dir, k.Name+".md"))
		if err != nil || fi.ModTime().Before(checked) {
			seen[k] = false
			return false
		}
		v, ok := vaults[k.Source]
		if !ok {
			v, _ = vault.Open(dir, vault.LockPath(state))
			vaults[k.Source] = v
		}
		bad := v == nil
		if !bad {
			m, err := v.Load(k.Name)
			bad = err != nil || !m.Reviewed()
		}
		if seen[k] = bad; bad {
			w.log.Warn("a memory file written in place is not reviewed now: left out", "vault", k.Source, "name", k.Name)
			os.Remove(path)
		}
		return bad
	}
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
func reviewed(docs []index.Doc, r review) []index.Doc {
	out := docs[:0:0]
	for _, d := range docs {
		if !r.unreviewed(d.Key) {
			out = append(out, d)
		}
	}
	return out
}
