package consolidate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/stamp"
)

// What the records of the state folder hold, and who reads them, says
// what pruning keeps. provenance.jsonl is read by [Inbox.Sightings] (the
// sightings of a memory or a draft, by name: review and the memory's page
// show them) and [Inbox.Drafting] (the newest drafting record of a draft
// in the inbox written no earlier than the draft). links.jsonl is read by
// [Inbox.Links] and those built on it ([Inbox.LinkOf] for approve, reject
// and review, [Inbox.LinksTo] for show and the memory's page), which
// replay it: a draft's newest link holds until a closed record ends it.
// So a sighting is kept while a memory of its name is in a vault, in the
// inbox or among the forgotten (which a person may restore); a drafting
// record while its draft waits and Drafting would return it; a link while
// its draft waits and it is the draft's newest; a closed link, and the
// link it closed, for [LinkRetention] after it was closed; an open link
// whose draft is gone from the inbox as long too.

// LinkRetention is how long a closed link is kept, and an open one whose
// draft left the inbox without a review (removed by hand).
const LinkRetention = 30 * 24 * time.Hour

// recordsLock, in the state folder, serializes the rewrite of a file of
// records with the appends to it: an append holds it shared (appends need
// not wait for each other: each is one write at the end), a rewrite holds
// it exclusive, so no append goes to a file a rewrite is replacing.
const recordsLock = "records.lock"

// lockRetry is how often a waiting append or rewrite tries the lock again.
const lockRetry = 5 * time.Millisecond

// lockRecords takes the records' lock, exclusive or shared, waiting until
// ctx ends, and returns the function that releases it.
func (in *Inbox) lockRecords(ctx context.Context, exclusive bool) (unlock func(), err error) {
	fl := flock.New(filepath.Join(filepath.Dir(in.Dir), recordsLock))
	try := fl.TryRLockContext
	if exclusive {
		try = fl.TryLockContext
	}
	ok, err := try(ctx, lockRetry)
	if err == nil && !ok {
		err = ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("lock the records: %w", err)
	}
	return func() { fl.Unlock() }, nil
}

// appendRecord appends v to the file of records at path, one line, holding
// the records' lock shared.
func (in *Inbox) appendRecord(ctx context.Context, path string, v any) error {
	unlock, err := in.lockRecords(ctx, false)
	if err != nil {
		return err
	}
	defer unlock()
	return safefile.AppendJSON(path, v, 0o644)
}

// A Pruned says what [Inbox.PruneRecords] kept and dropped of each file.
type Pruned struct {
	Sightings PrunedFile `json:"sightings"` // provenance.jsonl
	Links     PrunedFile `json:"links"`     // links.jsonl
}

// A PrunedFile counts the records of one file kept and dropped (damaged
// lines, which no reader reads, among them), and its size before and after.
type PrunedFile struct {
	Kept   int   `json:"kept"`
	Pruned int   `json:"pruned"`
	Before int64 `json:"bytes_before"`
	After  int64 `json:"bytes_after"`
}

// Names returns the names of the memories kept outside the inbox: in the
// vaults, and among the forgotten. [Inbox.PruneRecords] calls it after it
// has listed the inbox, under the records' lock, so that a draft approved
// meanwhile is seen in one place or the other.
type Names func() (map[string]bool, error)

// PruneRecords drops the records no reader needs (see the top of this
// file) from provenance.jsonl and links.jsonl, and with apply rewrites
// each file that changed, atomically, holding the records' lock
// exclusive: an append waits, and goes to the new file. Without apply it
// only counts. The whole file is read, whatever its size.
func (in *Inbox) PruneRecords(ctx context.Context, names Names, now time.Time, apply bool) (Pruned, error) {
	unlock, err := in.lockRecords(ctx, true)
	if err != nil {
		return Pruned{}, fmt.Errorf("inbox: prune: %w", err)
	}
	defer unlock()
	drafts, err := in.waiting()
	if err != nil {
		return Pruned{}, fmt.Errorf("inbox: prune: %w", err)
	}
	kept, err := names()
	if err != nil {
		return Pruned{}, fmt.Errorf("inbox: prune: %w", err)
	}
	var p Pruned
	p.Sightings, err = pruneFile(in.provenance, apply, func(lines [][]byte) []bool {
		return keepSightings(lines, drafts, kept)
	})
	if err != nil {
		return p, err
	}
	p.Links, err = pruneFile(in.links, apply, func(lines [][]byte) []bool {
		return keepLinks(lines, drafts, now)
	})
	return p, err
}

// waiting returns the drafts in the inbox folder by name, with when each
// was created: zero for a damaged draft, whose records are all kept for
// the person who mends it.
func (in *Inbox) waiting() (map[string]time.Time, error) {
	des, err := os.ReadDir(in.Dir)
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	for _, de := range des {
		name, ok := draftName(de.Name())
		if !ok {
			continue
		}
		out[name] = time.Time{}
		if m, err := in.Load(name); err == nil {
			out[name] = draftedSince(m.Created)
		}
	}
	return out, nil
}

// pruneFile reads the records of path whole (a damaged line, one past
// [maxRecord], is dropped), asks keep which stay, and with apply writes
// those back, as they were, when any went.
func pruneFile(path string, apply bool, keep func(lines [][]byte) []bool) (PrunedFile, error) {
	f, fi, err := safefile.OpenOwn(path, -1)
	if errors.Is(err, fs.ErrNotExist) {
		return PrunedFile{}, nil
	}
	if err != nil {
		return PrunedFile{}, fmt.Errorf("inbox: prune: %w", err)
	}
	var p PrunedFile
	var lines [][]byte
	read := int64(0) // the bytes of the lines given: the rest are lines past [maxRecord]
	err = eachLine(bufio.NewReaderSize(f, 64<<10), maxRecord, func(line []byte) {
		read += int64(len(line))
		line = bytes.TrimRight(line, "\n")
		if !json.Valid(line) {
			p.Pruned++
			return
		}
		lines = append(lines, append(bytes.Clone(line), '\n')) // a last line cut short of its newline gets one
	})
	f.Close()
	if err != nil {
		return PrunedFile{}, fmt.Errorf("inbox: prune: read %s: %w", path, err)
	}
	var out []byte
	for i, ok := range keep(lines) {
		if ok {
			out = append(out, lines[i]...)
			p.Kept++
		}
	}
	p.Pruned += len(lines) - p.Kept
	if read < fi.Size() {
		p.Pruned++ // one at least
	}
	p.Before, p.After = fi.Size(), int64(len(out))
	if p.Pruned == 0 && p.After == p.Before {
		return p, nil
	}
	if !apply {
		p.After = p.Before
		return p, nil
	}
	if err := atomicfile.WriteFile(path, out, fi.Mode().Perm()); err != nil {
		return p, fmt.Errorf("inbox: prune: %w", err)
	}
	return p, nil
}

// keepSightings says which sightings stay: those of a name kept, and of
// drafting only the one [Inbox.Drafting] gives of each waiting draft.
func keepSightings(lines [][]byte, drafts map[string]time.Time, kept map[string]bool) []bool {
	keep := make([]bool, len(lines))
	given := map[string]bool{} // the drafts whose drafting record is kept
	for i := len(lines) - 1; i >= 0; i-- {
		var s Sighting
		if json.Unmarshal(lines[i], &s) != nil {
			continue
		}
		since, waits := drafts[s.Memory]
		switch {
		case s.Action != Drafted:
			keep[i] = waits || kept[s.Memory]
		case !waits:
		case since.IsZero(): // a damaged draft: kept for when it is mended
			keep[i] = true
		case !given[s.Memory] && isDrafting(s, s.Memory, since):
			keep[i], given[s.Memory] = true, true
		}
	}
	return keep
}

// keepLinks says which links stay: replaying them as [Inbox.Links] does,
// a draft's links up to a closed record are a spell, of which only the
// newest link and the close can matter, and only for [LinkRetention]
// after the close; the open spell of a waiting draft keeps its newest
// link; that of a draft gone keeps it for [LinkRetention].
func keepLinks(lines [][]byte, drafts map[string]time.Time, now time.Time) []bool {
	keep := make([]bool, len(lines))
	type link struct {
		line int
		at   time.Time
	}
	newest := map[string]link{} // the open spell's newest link, by draft
	for i, line := range lines {
		var l Link
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		open, ok := newest[l.Draft]
		if l.Kind != linkClosed {
			newest[l.Draft] = link{i, l.At}
			continue
		}
		delete(newest, l.Draft)
		if now.Sub(l.At) > LinkRetention {
			continue
		}
		keep[i] = true
		if ok {
			keep[open.line] = true
		}
	}
	for draft, l := range newest {
		_, waits := drafts[draft]
		keep[l.line] = waits || now.Sub(l.at) <= LinkRetention
	}
	return keep
}

// PrunedStamp, in the state folder, holds the time the worker last pruned
// the records (RFC 3339), so that it prunes them at most once a day.
const PrunedStamp = "records.pruned"

// pruneEvery is how often at most [Inbox.PruneDaily] prunes.
const pruneEvery = 24 * time.Hour

// PruneDaily is [Inbox.PruneRecords], applied, at most once a day: the
// worker's, so that the records stay bounded when no one runs gc. It
// reports whether it pruned. A stamp that cannot be read counts as due,
// as [stamp.Due] says of a time after now (a clock set back).
func (in *Inbox) PruneDaily(ctx context.Context, names Names, now time.Time) (Pruned, bool, error) {
	path := filepath.Join(filepath.Dir(in.Dir), PrunedStamp)
	if due, err := stamp.Due(path, now, pruneEvery); err == nil && !due {
		return Pruned{}, false, nil
	}
	p, err := in.PruneRecords(ctx, names, now, true)
	if err != nil {
		return p, false, err
	}
	if err := stamp.Mark(path, now); err != nil {
		return p, true, fmt.Errorf("inbox: prune: %w", err)
	}
	return p, true, nil
}
