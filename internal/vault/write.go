package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// The write door. Every change to a memory file goes through one of the
// functions below: each holds the vault's lock, checks the memory the way
// a reader will ([Vault.check]), writes atomically and regenerates
// MEMORY.md. A new memory can never replace another one, and an update
// re-reads the file under the lock, so a change made meanwhile by another
// process is the one that is changed, never lost.

// ErrNoChange, returned (wrapped or not) by an [Vault.Update] function,
// means the memory needs no write.
var ErrNoChange = errors.New("no change")

// filePerm is the mode of a new memory file; an updated file keeps its own.
const filePerm = 0o644

// Create writes m as a new memory under its name and regenerates MEMORY.md.
// It refuses a name that is taken, with an error wrapping [ErrExists].
func (v *Vault) Create(ctx context.Context, m *memory.Memory) error {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if err := v.CreateLocked(m); err != nil {
		return err
	}
	return v.ReindexAfter(m.Name)
}

// CreateFree writes m as a new memory under its name, or under the first
// free one of name-2, name-3… when it is taken, and regenerates MEMORY.md.
// It sets m.Name to the name used and returns it.
func (v *Vault) CreateFree(ctx context.Context, m *memory.Memory) (string, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	m.Name = v.FreeName(m.Name)
	if err := v.CreateLocked(m); err != nil {
		return "", err
	}
	return m.Name, v.ReindexAfter(m.Name)
}

// CreateLocked is [Vault.Create] for a caller that holds [Vault.Lock] and
// regenerates MEMORY.md when it is done.
func (v *Vault) CreateLocked(m *memory.Memory) error {
	file := m.Name + ".md"
	if err := v.check(m); err != nil {
		return err
	}
	if _, err := os.Lstat(v.Path(m.Name)); !errors.Is(err, fs.ErrNotExist) {
		if err == nil {
			err = ErrExists
		}
		return fmt.Errorf("vault: %w", &FileError{Path: v.rel(file), Err: err})
	}
	data := m.Render()
	// Recorded before the write, so that a writer killed between the two
	// leaves no file of its own disowned. A memory read from a file mnemo
	// did not vouch for (renamed, say) stays disowned in its new file.
	if m.Reviewed() || m.Source == "" {
		v.vouch(data) // a failed record disowns the file until approved: the safe side
	}
	if err := atomicfile.WriteFile(v.Path(m.Name), data, filePerm); err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	return nil
}

// FreeName returns name when no file of the vault has it, else the first
// free one of name-2, name-3…, cut to fit [memory.MaxNameLen]. Only a
// caller that holds [Vault.Lock] can count on it staying free.
func (v *Vault) FreeName(name string) string {
	return FirstFree(name, func(n string) bool {
		_, err := os.Lstat(v.Path(n))
		return !errors.Is(err, fs.ErrNotExist)
	})
}

// FirstFree returns name, or name-2, name-3… when taken says it is taken.
func FirstFree(name string, taken func(string) bool) string {
	for i := 1; ; i++ {
		n := name
		if i > 1 {
			suffix := fmt.Sprintf("-%d", i)
			n = strings.TrimRight(name[:min(len(name), memory.MaxNameLen-len(suffix))], "-") + suffix
		}
		if !taken(n) {
			return n
		}
	}
}

// Update changes the memory called name: holding the lock, it reads the
// file as it is now, calls fn on it, checks the result, writes it
// atomically with the file's own mode and owner, and regenerates MEMORY.md. It
// returns the memory as written. When fn returns an error, nothing is
// written; when that error is [ErrNoChange], Update returns the memory
// and no error. fn may not rename the memory; it must not block on
// anything but its own work (ask a person before, then check again in fn).
func (v *Vault) Update(ctx context.Context, name string, fn func(*memory.Memory) error) (*memory.Memory, error) {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	m, err := v.UpdateLocked(name, fn)
	if err != nil {
		return nil, err
	}
	return m, v.ReindexAfter(name)
}

// UpdateLocked is [Vault.Update] for a caller that holds [Vault.Lock] and
// regenerates MEMORY.md when it is done.
func (v *Vault) UpdateLocked(name string, fn func(*memory.Memory) error) (*memory.Memory, error) {
	if !memory.ValidName(name) {
		return nil, fmt.Errorf("vault: %q is not a memory name", name)
	}
	file := name + ".md"
	fi, err := os.Lstat(v.Path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("vault: %w", &FileError{Path: v.rel(file), Err: ErrNotFound})
	}
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("vault: %w", &FileError{Path: v.rel(file), Err: errors.New("not a regular file: refused")})
	}
	m, err := v.load(name)
	if err != nil {
		return nil, err
	}
	// An update keeps the file's standing: one mnemo vouched for stays
	// vouched for; one it did not (the agent wrote it, header and all)
	// stays disowned whatever the update writes into its header, unless a
	// person approves it. So no edit launders a forged source.
	vouched := m.Reviewed()
	before := m.Render()
	old, _ := v.ReadFile(file) // the bytes this write replaces, to take back (an unreadable file has none to)
	if err := fn(m); errors.Is(err, ErrNoChange) {
		return m, nil
	} else if err != nil {
		return nil, err
	}
	if m.Name != name {
		return nil, fmt.Errorf("vault: update %s: the name cannot change (to %q) in an update", file, m.Name)
	}
	if err := v.check(m); err != nil {
		return nil, err
	}
	after := m.Render()
	if bytes.Equal(before, after) {
		if m.Approved() {
			v.vouch(after)
		}
		return m, nil
	}
	if vouched || m.Approved() {
		v.vouch(after) // before the write, as in CreateLocked
	} else if m.Source != "" {
		m.Disown("")
	}
	if err := atomicfile.WriteFileLike(v.Path(name), after, fi); err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	if old != nil && !bytes.Equal(old, after) {
		v.revoke(old) // after the write: a writer killed before leaves the old bytes vouched, as they were
	}
	return m, nil
}

// check is what every write checks before a byte is written: the memory
// is valid (as lint and every reader judge it) and no reader will refuse
// to open it. One check for every write keeps the door one door.
func (v *Vault) check(m *memory.Memory) error {
	if err := CheckReadable(m, v.rel(m.Name+".md")); err != nil {
		if field(err, "name") {
			if serr := v.checkSecrets(m); serr != nil {
				return serr // said without the file's name, which may be the secret
			}
		}
		return fmt.Errorf("vault: %w", err)
	}
	return v.checkSecrets(m)
}

// field reports whether one of err's problems is with the header key.
func field(err error, key string) bool {
	for _, p := range memory.Problems(err) {
		if pe := (*memory.ParseError)(nil); errors.As(p, &pe) && pe.Field == key {
			return true
		}
	}
	return false
}

// CheckReadable reports every problem that would make a reader refuse m
// written as file: its header ([memory.Memory.Validate]) and its size
// against [memory.MaxFileSize], the one limit readers and writers share.
// Every writer of memory files (the vault's door, the inbox) calls it.
func CheckReadable(m *memory.Memory, file string) error {
	if err := m.Validate(file); err != nil {
		return err
	}
	return memory.CheckSize(file, "body", len(m.Render()))
}

// An IndexBehindError says that a write was saved but MEMORY.md could not
// be regenerated after it (a full disk, a MEMORY.md that is not a regular
// file): the memory is there and readers see it; the index is behind until
// 'mnemo reindex' succeeds.
type IndexBehindError struct {
	Saved string // the memory written or removed
	Err   error  // why MEMORY.md was not written
}

func (e *IndexBehindError) Error() string {
	return fmt.Sprintf("%s is saved, but MEMORY.md was not updated (%v): run 'mnemo reindex' once that is fixed", e.Saved+".md", e.Err)
}

func (e *IndexBehindError) Unwrap() error { return e.Err }

// Saved reports whether err says only that MEMORY.md is behind a write
// that was saved ([IndexBehindError]): the write itself succeeded.
func Saved(err error) bool {
	var ib *IndexBehindError
	return errors.As(err, &ib)
}

// ReindexAfter is [Vault.ReindexLocked] after a write of the memory saved:
// a failure says that the memory is saved and the index behind.
func (v *Vault) ReindexAfter(saved string) error {
	if err := v.ReindexLocked(); err != nil {
		return &IndexBehindError{Saved: saved, Err: err}
	}
	return nil
}
