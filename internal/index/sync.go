package index

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/sqlitefile"
)

// A Source is one vault folder the index mirrors, under a name that is part
// of the key of every memory in it.
type Source struct {
	Name string // "project", "user"
	Dir  string
}

// MountSources are the vaults mounted read-only into a project ('mnemo
// vault add') as sources, each named by its mount.
func MountSources(ms []project.Mount) []Source {
	out := make([]Source, 0, len(ms))
	for _, m := range ms {
		out = append(out, Source{Name: m.Name, Dir: m.Dir})
	}
	return out
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
	stamp int64 // filestamp.Of, as the sync that read the file saw it; 0: read it again
	hash  string
}

// seen is a memory file found in a folder.
type seen struct {
	source string
	name   string
	path   string
	size   int64
	mtime  int64 // for a memory without a date of its own
	// stamp is the file's filestamp.Of, or 0 when the file changed within
	// filestamp.Window of the sync: then no stamp says what it holds, and
	// the next sync reads it again.
	stamp int64
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
// Several processes may sync one index at once: a sync finds the changed
// files without the write lock, then checks under it that no other sync
// wrote in between, and starts over when one did. Files are read and
// parsed under the lock, while the rows are written.
//
// A sync whose index.db was deleted under it goes on into the index now
// at the path, from every file; one that meets damage, into the index
// rebuilt from the files ([DB.healed]).
func (db *DB) Sync(ctx context.Context, sources ...Source) (SyncStats, error) {
	db.mirrors(sources)
	return sqlitefile.Retried(ctx, db.healed, func() (SyncStats, error) { return db.syncRaced(ctx, sources) })
}

// syncRaced syncs, and again when another process's sync wrote between
// the diff and the apply, 5 times at most.
func (db *DB) syncRaced(ctx context.Context, sources []Source) (SyncStats, error) {
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
	var todo []change
	var removed []int64
	gen, err := generation(ctx, db.sql)
	if err != nil {
		return st, fmt.Errorf("index: sync: %w", err)
	}
	for _, src := range sources {
		t, r, unchanged, problems, err := db.diff(ctx, src)
		if err != nil {
			return st, fmt.Errorf("index: sync %s: %w", src.Name, err)
		}
		todo = append(todo, t...)
		removed = append(removed, r...)
		st.Unchanged += unchanged
		st.Problems = append(st.Problems, problems...)
	}
	if len(todo) == 0 && len(removed) == 0 {
		return st, nil
	}
	if err := db.apply(ctx, gen, sources, todo, removed, &st); errors.Is(err, errRaced) {
		return st, err
	} else if err != nil {
		return SyncStats{Problems: st.Problems}, fmt.Errorf("index: sync: %w", err)
	}
	return st, nil
}

// generationQuery reads the count of syncs that wrote the index.
const generationQuery = "SELECT gen FROM lengths WHERE k = 1"

// generation returns the count of syncs that wrote the index.
func generation(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int64, error) {
	var gen int64
	err := q.QueryRowContext(ctx, generationQuery).Scan(&gen)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return gen, err
}

// diff compares one folder with the index by name, size and stamp: the
// files to read (with the stored hash of those the index has), the rows of
// files that are gone, how many files are unchanged, and the files left out.
func (db *DB) diff(ctx context.Context, src Source) (todo []change, removed []int64, unchanged int, problems []error, err error) {
	known, err := db.storedFiles(ctx, src.Name)
	if err != nil {
		return nil, nil, 0, nil, err
	}
	files, problems, err := walk(src.Name, src.Dir, time.Now())
	if err != nil {
		return nil, nil, 0, nil, err
	}
	for _, f := range files {
		old, ok := known[f.name]
		if ok {
			delete(known, f.name)
			if old.size == f.size && old.stamp == f.stamp && f.stamp != 0 {
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
	// A file stored without a stamp and still too recent for one is read
	// here: as it was stored, it is unchanged, and nothing is written
	// (processes that sync at once would otherwise each write it, again
	// and again, until it settles).
	todo = slices.DeleteFunc(todo, func(c change) bool {
		if c.old != nil && c.old.stamp == 0 && c.stamp == 0 && c.old.size == c.size && asStored(&c) {
			unchanged++
			return true
		}
		return false
	})
	return todo, removed, unchanged, problems, nil
}

// apply reads the files of todo and writes them, and deletes the rows
// removed, in one transaction. The rows go in while the files are still
// being read and parsed, on the other cores: a cold build spends about as
// long on each. Files are written in key order, so that row ids follow
// names and the indexes on names grow at their end.
func (db *DB) apply(ctx context.Context, gen int64, sources []Source, todo []change, removed []int64, st *SyncStats) error {
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
	// A statement that may fail halfway keeps a copy of every page it
	// changes, to undo itself; none need to, as any failure rolls back the
	// whole sync. So rows go in with OR FAIL, and foreign keys are checked
	// at commit.
	if _, err := tx.ExecContext(ctx, "PRAGMA defer_foreign_keys = ON"); err != nil {
		return err
	}
	w, err := newWriter(ctx, tx)
	if err != nil {
		return err
	}
	w.removed = removed
	slices.SortFunc(todo, func(a, b change) int {
		return cmp.Or(cmp.Compare(a.source, b.source), cmp.Compare(a.name, b.name))
	})
	df := make(map[string]int)
	err = load(ctx, todo, df, func(c *change, err error) error {
		return w.take(ctx, tx, c, err, st)
	})
	if err != nil {
		return err
	}
	for s, n := range df {
		w.df[s] += n
	}
	st.Removed = len(w.removed)
	if err := w.write(ctx, tx); err != nil {
		return err
	}
	if err := writeManifests(ctx, tx, sources); err != nil {
		return err
	}
	if err := writeLengths(ctx, tx, nextGeneration(gen)); err != nil {
		return err
	}
	return tx.Commit()
}

// nextGeneration is the generation of the sync after one at gen. The first
// sync of an index.db starts at a random one, so that an index deleted and
// made again (the state folder removed while a server runs) never takes
// up the numbers of the one before: what a process keeps by generation
// (see [DB.Vectors], [DB.readLengths]) is never taken for the new file's.
func nextGeneration(gen int64) int64 {
	if gen == 0 {
		return 1 + rand.Int64N(1<<48)
	}
	return gen + 1
}

// take queues one loaded file, or notes why it could not be loaded, and
// writes the rows queued when there are enough.
func (w *writer) take(ctx context.Context, tx *sql.Tx, c *change, err error, st *SyncStats) error {
	switch {
	case err != nil:
		if c.old != nil {
			w.removed = append(w.removed, c.old.id) // it no longer parses: out of the index
		}
		st.Problems = append(st.Problems, err)
		return nil
	case c.old == nil:
		st.Added++
	case c.rec != nil:
		st.Updated++
	default:
		st.Unchanged++
	}
	w.add(*c)
	c.rec = nil // the row is queued; the text need not stay
	if len(w.rows) >= rowsPerWrite {
		return w.writeRows(ctx, tx)
	}
	return nil
}
