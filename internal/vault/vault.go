package vault

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// IndexFile is the generated index in every vault.
const IndexFile = "MEMORY.md"

// A FileError is a problem with one file of the vault as a file (rather
// than its content, which [memory.ParseError] reports).
type FileError struct {
	Path string // as shown to the user
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Conditions a caller may test for with [errors.Is].
var (
	ErrNoVault  = errors.New("no vault")
	ErrExists   = errors.New("already exists")
	ErrNotFound = errors.New("no such memory")
	ErrOutside  = errors.New("symlink points outside the vault: refused")
)

// A Vault is a folder of memory files.
type Vault struct {
	Dir      string // absolute
	display  string // Dir as messages show it
	lockPath string
	mu       sync.Mutex // serializes Lock within this process

	cacheMu sync.Mutex // guards following
	cache   map[string]cached

	vouches vouches // the writes mnemo made here: see vouch.go
}

// cached is a parsed memory file with the stat it was parsed at, so that
// regenerating MEMORY.md after each write parses only what changed.
type cached struct {
	stat fileStat
	m    *memory.Memory
}

type fileStat struct {
	size int64
	// stamp is the file's filestamp.Of; 0 when it changed within
	// filestamp.Window of its read, and then its parse is not kept: a
	// rewrite at the same size in the same tick of the clock keeps every
	// time a stat gives.
	stamp int64
}

// Open opens the vault in dir. lockFile is the cross-process writer lock
// where the folder itself cannot be locked ([Vault.Lock]); it lives in the
// state folder so that it never enters the vault's git.
func Open(dir, lockFile string) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	fi, err := os.Stat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("vault: %w at %s", ErrNoVault, abs)
	}
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("vault: %s is not a folder", abs)
	}
	display := abs
	if wd, err := os.Getwd(); err == nil {
		if r, err := filepath.Rel(wd, abs); err == nil && filepath.IsLocal(r) {
			display = r
		}
	}
	return &Vault{Dir: abs, display: display, lockPath: lockFile}, nil
}

// Create makes the vault folder and its MEMORY.md when they do not exist,
// and reports whether it created anything. It leaves an existing vault as it is.
func Create(dir string) (created bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("vault: create %s: %w", dir, err)
	}
	index := filepath.Join(dir, IndexFile)
	if _, err := os.Lstat(index); err == nil {
		return false, nil
	}
	if err := atomicfile.WriteFile(index, RenderIndex(nil, nil), 0o644); err != nil {
		return false, fmt.Errorf("vault: %w", err)
	}
	return true, nil
}

// Path returns the file of the memory called name.
func (v *Vault) Path(name string) string { return filepath.Join(v.Dir, name+".md") }

// An Entry is a memory file as listed: its name (the file name without
// .md, which links and commands use) and the parsed memory.
type Entry struct {
	Name   string
	Memory *memory.Memory
}

// Names returns the names of the memory files in the vault, read or not:
// a file that cannot be parsed is still the person's memory.
func (v *Vault) Names() ([]string, error) {
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	var names []string
	for _, de := range des {
		if n := de.Name(); isMemoryFile(n) {
			names = append(names, strings.TrimSuffix(n, ".md"))
		}
	}
	return names, nil
}

// List loads every memory in the vault, sorted by name. A file that cannot
// be read or parsed is reported in problems and skipped: one bad file never
// hides the others.
func (v *Vault) List() (entries []Entry, problems []error) {
	names, err := v.Names()
	if err != nil {
		return nil, []error{err}
	}
	results := make([]struct {
		m   *memory.Memory
		err error
	}, len(names))
	var wg sync.WaitGroup
	work := make(chan int)
	ps := v.newPass(true)                 // the list of writes is read once, git asked at most once
	for range 4 * runtime.GOMAXPROCS(0) { // file reads block in syscalls: overlap them
		wg.Go(func() {
			for i := range work {
				results[i].m, results[i].err = v.loadWith(names[i], ps)
			}
		})
	}
	for i := range names {
		work <- i
	}
	close(work)
	wg.Wait()
	ps.done()
	for i, r := range results {
		if r.err != nil {
			problems = append(problems, r.err)
			continue
		}
		entries = append(entries, Entry{Name: names[i], Memory: r.m})
	}
	slices.SortFunc(entries, func(a, b Entry) int { return cmp.Compare(a.Name, b.Name) })
	return entries, problems
}

// isMemoryFile reports whether a file name in a vault folder is a memory.
func isMemoryFile(name string) bool {
	return strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, ".") &&
		!strings.EqualFold(name, IndexFile)
}

// Load reads the memory called name.
func (v *Vault) Load(name string) (*memory.Memory, error) {
	l := v.Loader()
	defer l.Close()
	return l.Load(name)
}

// A Loader reads several memories of a vault in one pass, as [Vault.List]
// does: the list of mnemo's writes is read once and git asked each
// question once for them all, where a Load each would ask again for each
// file whose header mnemo's writes do not vouch for (a git process or
// two: tens of milliseconds under load). Close ends the pass. A Loader is
// for one task (a recall's results): what git says is read when first
// asked and not again.
type Loader struct {
	v  *Vault
	ps *pass
}

// Loader starts a pass over v's files; see [Loader].
func (v *Vault) Loader() *Loader { return &Loader{v: v, ps: v.newPass(false)} }

// Load is [Vault.Load] within the loader's pass.
func (l *Loader) Load(name string) (*memory.Memory, error) {
	if !memory.ValidName(name) {
		return nil, fmt.Errorf("vault: %q is not a memory name", name)
	}
	return l.v.loadWith(name, l.ps)
}

// Close ends the pass.
func (l *Loader) Close() { l.ps.done() }

// Loaders keeps a [Loader] for each vault a task reads, made on its first
// read of that vault, so that a task reading several vaults' files (a
// recall's results) has one pass a vault. The zero value is not ready:
// make it with make(Loaders). Close ends every pass.
type Loaders map[*Vault]*Loader

// Load is [Loader.Load] of v's loader.
func (ls Loaders) Load(v *Vault, name string) (*memory.Memory, error) {
	l := ls[v]
	if l == nil {
		l = v.Loader()
		ls[v] = l
	}
	return l.Load(name)
}

// Close ends every loader's pass.
func (ls Loaders) Close() {
	for _, l := range ls {
		l.Close()
	}
}

func (v *Vault) load(name string) (*memory.Memory, error) {
	ps := v.newPass(false)
	defer ps.done()
	return v.loadWith(name, ps)
}

// loadWith is load within a pass, which vouches for the file's header
// ([pass.disownForged]).
func (v *Vault) loadWith(name string, ps *pass) (*memory.Memory, error) {
	path := v.Path(name)
	v.cacheMu.Lock()
	c, cachedBefore := v.cache[name]
	v.cacheMu.Unlock()
	var data []byte
	var st fileStat
	var err error
	if cachedBefore {
		// A stat tells whether the cached parse still holds.
		fi, err := os.Lstat(path)
		if err == nil && fi.Mode().IsRegular() && statOf(fi) == c.stat {
			return c.m.Clone(), nil
		}
	}
	data, st, err = readPlain(path)
	if err != nil {
		// A symlink, an odd file, a race: read it the careful way, uncached.
		data, err = v.ReadFile(name + ".md")
		if err != nil {
			return nil, err
		}
		st = fileStat{}
	}
	m, err := memory.Parse(v.rel(name+".md"), data)
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	ps.disownForged(name, data, m)
	// A disowned file is checked again on every read: a commit can vouch
	// for it without changing it.
	if st.stamp != 0 && (m.Reviewed() || m.Source == "") {
		v.cacheMu.Lock()
		if v.cache == nil {
			v.cache = make(map[string]cached)
		}
		v.cache[name] = cached{stat: st, m: m.Clone()}
		v.cacheMu.Unlock()
	}
	return m, nil
}

// ReadFile reads a file of the vault by its name in the folder. It refuses
// a symlink that leads outside the vault, anything but a regular file, and
// a file larger than [memory.MaxFileSize], before reading it.
func (v *Vault) ReadFile(file string) ([]byte, error) {
	fi, err := os.Lstat(filepath.Join(v.Dir, file))
	return v.readFile(file, fi, err)
}

// readFile is ReadFile given the result of Lstat on the file.
func (v *Vault) readFile(file string, fi fs.FileInfo, err error) ([]byte, error) {
	rel := v.rel(file)
	path := filepath.Join(v.Dir, file)
	fail := func(err error) ([]byte, error) { return nil, fmt.Errorf("vault: %w", &FileError{Path: rel, Err: err}) }
	if errors.Is(err, fs.ErrNotExist) && strings.HasSuffix(file, ".md") && file != IndexFile {
		return fail(ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("vault: %w", err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if err := v.checkSymlink(path); err != nil {
			return fail(err)
		}
		if fi, err = os.Stat(path); err != nil {
			return fail(err)
		}
	}
	if !fi.Mode().IsRegular() {
		return fail(errors.New("not a regular file"))
	}
	if fi.Size() > memory.MaxFileSize {
		return nil, fmt.Errorf("vault: %w", &memory.ParseError{Path: rel, Err: memory.ErrTooLarge})
	}
	// Opened without blocking and checked again: the file may have been
	// swapped (for a FIFO, say) since it was listed.
	data, err := safefile.Read(path, memory.MaxFileSize)
	switch {
	case errors.Is(err, safefile.ErrNotRegular):
		return fail(errors.New("not a regular file"))
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, fmt.Errorf("vault: %w", &memory.ParseError{Path: rel, Err: memory.ErrTooLarge})
	case err != nil:
		return nil, fmt.Errorf("vault: %w", err)
	}
	return data, nil
}

// checkSymlink refuses a link whose target is not inside the vault.
func (v *Vault) checkSymlink(path string) error {
	if _, err := project.Inside(v.Dir, path); errors.Is(err, project.ErrOutside) {
		return ErrOutside
	} else if err != nil {
		return err
	}
	return nil
}

// rel names a vault file in messages: under the vault's display path,
// relative to the working folder when the vault is under it, so messages
// read like .memory/bad.md.
func (v *Vault) rel(file string) string { return filepath.Join(v.display, file) }

// existLocked reports an error unless every name is a memory of the vault.
func (v *Vault) existLocked(names []string) error {
	for _, name := range names {
		if !memory.ValidName(name) {
			return fmt.Errorf("vault: %q is not a memory name", name)
		}
		if _, err := os.Lstat(v.Path(name)); err != nil {
			return fmt.Errorf("vault: %w", &FileError{Path: v.rel(name + ".md"), Err: ErrNotFound})
		}
	}
	return nil
}

// joinNames names memory files for [Vault.ReindexAfter].
func joinNames(names []string) string { return strings.Join(names, ".md, ") }

// RemoveLocked deletes one memory file; the caller holds [Vault.Lock].
// The bytes removed are taken back from the list of writes: written again
// by anyone, they are not mnemo's.
func (v *Vault) RemoveLocked(name string) error {
	old, _ := v.ReadFile(name + ".md")
	if err := os.Remove(v.Path(name)); err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	if err := atomicfile.SyncDir(v.Dir); err != nil {
		return fmt.Errorf("vault: remove %s: sync folder: %w", name, err)
	}
	if old != nil {
		v.revoke(old)
	}
	return nil
}

// Reindex regenerates MEMORY.md, holding the lock.
func (v *Vault) Reindex(ctx context.Context) error {
	unlock, err := v.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	return v.ReindexLocked()
}

// IndexStale reports whether MEMORY.md differs from what entries (a
// [Vault.List] of the vault) make of it: a reader's check, without the
// lock, before it asks for a [Vault.Reindex]. An unreadable MEMORY.md is
// stale.
func (v *Vault) IndexStale(entries []Entry) bool {
	old, err := safefile.Read(filepath.Join(v.Dir, IndexFile), MaxIndexFile)
	if err != nil {
		return true
	}
	return string(RenderIndex(old, entries)) != string(old)
}

// ReindexLocked regenerates MEMORY.md from the files, writing only when it
// changes; the caller holds [Vault.Lock]. A git conflict it resolves is
// noted for the person ([TakeResolved]).
func (v *Vault) ReindexLocked() error {
	entries, _ := v.List() // an unreadable file has no index line; lint reports it
	path := filepath.Join(v.Dir, IndexFile)
	old, err := safefile.Read(path, MaxIndexFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("vault: %w", err)
	}
	next := RenderIndex(old, entries)
	if string(next) == string(old) {
		return nil
	}
	if err := atomicfile.WriteFile(path, next, 0o644); err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	if first, last := IndexConflict(old); first > 0 {
		v.noteResolved(path, first, last)
	}
	return nil
}
