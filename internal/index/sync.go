package index

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A Source is one vault folder the index mirrors, under a name that is part
// of the key of every memory in it.
type Source struct {
	Name string // "project", "user"
	Dir  string
}

// SyncStats says what a [DB.Sync] did.
type SyncStats struct {
	Added, Updated, Removed, Unchanged int
	// Problems lists the files left out of the index, each error naming
	// its file: unreadable, not a memory, or a header that does not parse.
	Problems []error
}

// Changed reports whether the sync wrote anything.
func (s SyncStats) Changed() bool { return s.Added+s.Updated+s.Removed > 0 }

// stored is what the index knows of a file without reading it.
type stored struct {
	id    int64
	size  int64
	mtime int64
	hash  string
}

// seen is a memory file found in a folder.
type seen struct {
	source string
	name   string
	path   string
	size   int64
	mtime  int64
}

// change is a file to write into the index: a new or edited memory, or
// (m nil) a file whose content is as stored but whose stat changed.
type change struct {
	seen
	old  *stored
	hash string
	rec  *record
}

// Sync brings the index up to date with the memory files (*.md except
// MEMORY.md and dotfiles) in the folders of sources. A file whose size and
// modification time match the index is not read; one whose content hash
// matches is not parsed. Rows of removed files are deleted. Sources not
// named keep their rows. A missing folder holds no memories. All writes are
// one transaction, and a sync that finds nothing changed writes nothing.
//
// Several processes may sync one index at once: a sync computes what
// changed without the write lock, then checks under it that no other sync
// wrote in between, and starts over when one did.
func (db *DB) Sync(ctx context.Context, sources ...Source) (SyncStats, error) {
	for range 5 {
		st, err := db.sync(ctx, sources)
		if !errors.Is(err, errRaced) {
			return st, err
		}
	}
	return SyncStats{}, fmt.Errorf("index: sync: other processes kept writing the index")
}

// errRaced says that another sync wrote between a diff and its apply.
var errRaced = errors.New("another sync wrote the index")

func (db *DB) sync(ctx context.Context, sources []Source) (SyncStats, error) {
	var st SyncStats
	var changes []change
	var removed []int64
	df := make(map[string]int)
	gen, err := generation(ctx, db.sql)
	if err != nil {
		return st, fmt.Errorf("index: sync: %w", err)
	}
	for _, src := range sources {
		c, r, unchanged, problems, err := db.diff(ctx, src, df)
		if err != nil {
			return st, fmt.Errorf("index: sync %s: %w", src.Name, err)
		}
		changes = append(changes, c...)
		removed = append(removed, r...)
		st.Unchanged += unchanged
		st.Problems = append(st.Problems, problems...)
	}
	if len(changes) == 0 && len(removed) == 0 {
		return st, nil
	}
	for _, c := range changes {
		switch {
		case c.old == nil:
			st.Added++
		case c.rec != nil:
			st.Updated++
		default:
			st.Unchanged++
		}
	}
	st.Removed = len(removed)
	if err := db.apply(ctx, gen, sources, changes, removed, df); errors.Is(err, errRaced) {
		return st, err
	} else if err != nil {
		return SyncStats{Problems: st.Problems}, fmt.Errorf("index: sync: %w", err)
	}
	return st, nil
}

// generation returns the count of syncs that wrote the index.
func generation(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, error) {
	var gen int64
	err := q.QueryRowContext(ctx, "SELECT gen FROM lengths WHERE k = 1").Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return gen, err
}

// diff compares one folder with the index: the files to write, the rows to
// delete, how many files are unchanged, and the files left out. It adds
// the stems of the files it parsed to df.
func (db *DB) diff(ctx context.Context, src Source, df map[string]int) (changes []change, removed []int64, unchanged int, problems []error, err error) {
	known, err := db.storedFiles(ctx, src.Name)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	files, problems, err := walk(src.Name, src.Dir)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	var todo []change
	for _, f := range files {
		old, ok := known[f.name]
		if ok {
			delete(known, f.name)
			if old.size == f.size && old.mtime == f.mtime {
				unchanged++
				continue
			}
			todo = append(todo, change{seen: f, old: &old})
			continue
		}
		todo = append(todo, change{seen: f})
	}
	for _, old := range known {
		removed = append(removed, old.id)
	}
	if err := db.storedHashes(ctx, todo); err != nil {
		return nil, nil, 0, nil, err
	}
	changes, bad := load(ctx, todo, df)
	for _, b := range bad {
		if b.old != nil {
			removed = append(removed, b.old.id) // it no longer parses: out of the index
		}
		problems = append(problems, b.err)
	}
	return changes, removed, unchanged, problems, nil
}

// failed is a file that could not be loaded.
type failed struct {
	old *stored
	err error
}

// load reads, hashes and parses the files of todo on every core. A file
// whose hash matches its stored row comes back with m nil.
func load(ctx context.Context, todo []change, df map[string]int) (ok []change, bad []failed) {
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	var mu sync.Mutex // guards df
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(len(todo), 1)) {
		wg.Go(func() {
			local := make(map[string]int)
			cache := make(map[string]string)
			for i := range next {
				errs[i] = loadOne(&todo[i], local, cache)
			}
			mu.Lock()
			for s, n := range local {
				df[s] += n
			}
			mu.Unlock()
		})
	}
	for i := range todo {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for i, c := range todo {
		if errs[i] != nil {
			bad = append(bad, failed{old: c.old, err: errs[i]})
			continue
		}
		if c.hash != "" {
			ok = append(ok, c)
		}
	}
	return ok, bad
}

// loadOne reads one file; it parses it unless its hash is the stored one,
// and then counts its stems in df (cache keeps stems by word).
func loadOne(c *change, df map[string]int, cache map[string]string) error {
	data, err := os.ReadFile(c.path)
	if err != nil {
		return err
	}
	c.size = int64(len(data))
	sum := sha256.Sum256(data)
	c.hash = hex.EncodeToString(sum[:])
	if c.old != nil && c.old.hash == c.hash {
		return nil
	}
	m, err := memory.Parse(c.path, data)
	if err != nil {
		return err
	}
	c.rec = newRecord(c.name, c.mtime, m)
	for _, st := range c.rec.stems(c.name, m, cache) {
		df[st]++
	}
	return nil
}

// apply writes the changes and deletions in one transaction.
func (db *DB) apply(ctx context.Context, gen int64, sources []Source, changes []change, removed []int64, df map[string]int) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if now, err := generation(ctx, tx); err != nil {
		return err
	} else if now != gen {
		return errRaced
	}
	w, err := newWriter(ctx, tx)
	if err != nil {
		return err
	}
	w.df = df
	// In key order, so that the indexes on names grow at their end.
	slices.SortFunc(changes, func(a, b change) int {
		return cmp.Or(cmp.Compare(a.source, b.source), cmp.Compare(a.name, b.name))
	})
	for _, c := range changes {
		w.add(c)
	}
	w.removed = removed
	if err := w.write(ctx, tx); err != nil {
		return err
	}
	if err := writeManifests(ctx, tx, sources); err != nil {
		return err
	}
	if err := writeLengths(ctx, tx, gen+1); err != nil {
		return err
	}
	return tx.Commit()
}
