package vault

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// ForgottenDir is the folder of a state folder that keeps the memories
// taken out of its vault: nothing mnemo removes, whoever asks (a person's
// rm or gc, an agent's forget), is destroyed; a person restores one by
// copying it back, then approving it (it is then a file mnemo did not
// write). ForgottenLog, beside it, records each: one JSON line.
const (
	ForgottenDir = "forgotten"
	ForgottenLog = "forgotten.jsonl"
)

// A Removal says why memories leave a vault and by what.
type Removal struct {
	Vault  string    // the vault's name in the record: project or user (inbox for a draft)
	Reason string    // recorded, with any secret in it redacted
	Source string    // what took them out: "mnemo rm", "mcp forget"…
	At     time.Time // the removal's time
}

// A Forgotten is one line of [ForgottenLog]: what left the vault, when,
// why, by what, and where its copy is.
type Forgotten struct {
	Name   string    `json:"name"`
	Vault  string    `json:"vault"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
	File   string    `json:"file"`
	Source string    `json:"source"`
}

// MoveOut takes the named memories out of the vault, holding its lock:
// each file is copied into [ForgottenDir] of the vault's state folder (the
// folder of its lock file: see [LockPath]), any secret in it redacted, and
// recorded in [ForgottenLog] before it is removed; MEMORY.md is
// regenerated once.
// Nothing moves when a name is not a memory of the vault. It returns
// where each copy went, in the order of names.
func (v *Vault) MoveOut(ctx context.Context, r Removal, names ...string) ([]string, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := v.existLocked(names); err != nil {
		return nil, err
	}
	dests := make([]string, 0, len(names))
	for _, name := range names {
		dest, err := v.moveOutLocked(r, name)
		if err != nil {
			return dests, err
		}
		dests = append(dests, dest)
	}
	return dests, v.ReindexAfter(joinNames(names))
}

// moveOutLocked takes one memory out, as [Vault.MoveOut] does, holding
// the lock; it returns where the copy went. MEMORY.md is left as it is.
func (v *Vault) moveOutLocked(r Removal, name string) (string, error) {
	data, err := v.ReadFile(name + ".md")
	if err != nil {
		return "", err
	}
	dest, err := v.KeepLocked(r, name, data)
	if err != nil {
		return "", err
	}
	return dest, v.RemoveLocked(name)
}

// KeepLocked keeps data, the text of the memory name, as [Vault.MoveOut]
// keeps what it takes out: a copy in [ForgottenDir] of the vault's state
// folder, any secret in it redacted, recorded in [ForgottenLog]. It
// returns where the copy went. The caller holds the vault's lock: so does
// the inbox of drafts (package consolidate) when it keeps a draft that
// expired.
func (v *Vault) KeepLocked(r Removal, name string, data []byte) (string, error) {
	state := v.stateDir()
	if state == "" {
		return "", fmt.Errorf("vault: %s has no state folder to keep removed memories in", v.display)
	}
	dir := filepath.Join(state, ForgottenDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("vault: keep removed memories: %w", err)
	}
	at := r.At.UTC()
	dest := keptName(dir, name, at)
	if err := atomicfile.WriteFile(dest, []byte(redact.String(string(data))), 0o644); err != nil {
		return "", fmt.Errorf("vault: remove %s: keep a copy: %w", name, err)
	}
	rec := Forgotten{Name: name, Vault: r.Vault, Reason: redact.String(r.Reason), At: at, File: dest, Source: r.Source}
	if err := safefile.AppendJSON(filepath.Join(state, ForgottenLog), rec, 0o644); err != nil {
		return "", fmt.Errorf("vault: remove %s: record it: %w", name, err)
	}
	return dest, nil
}

// ForgottenNames returns the names of the memories whose copies are kept
// in the [ForgottenDir] of the state folder stateDir ([keptName] names
// each copy): none when there is no such folder.
func ForgottenNames(stateDir string) ([]string, error) {
	des, err := os.ReadDir(filepath.Join(stateDir, ForgottenDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	var out []string
	for _, de := range des {
		if name, _, ok := strings.Cut(de.Name(), "."); ok && memory.ValidName(name) && strings.HasSuffix(de.Name(), ".md") {
			out = append(out, name)
		}
	}
	return out, nil
}

// keptName is the file in dir for a copy of the memory name removed at:
// the name and the time, and a number after them when a copy removed at
// the same time is there already (a clock that is coarse, or fixed): a
// copy never replaces another. The caller holds the vault's lock.
func keptName(dir, name string, at time.Time) string {
	base := filepath.Join(dir, name+"."+at.Format("20060102T150405.000000000Z"))
	dest := base + ".md"
	for n := 2; ; n++ {
		if _, err := os.Lstat(dest); err != nil {
			return dest // none there (or none to be seen: the write says why)
		}
		dest = fmt.Sprintf("%s-%d.md", base, n)
	}
}
