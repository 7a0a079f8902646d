package consolidate

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// What consolidation learns about a memory without changing what it
// claims is kept in the state folder beside the inbox, as JSON lines that
// are only ever appended to: a sighting when a candidate says the same fact
// again (provenance.jsonl), and a link when a draft is about a memory
// (links.jsonl). The committed files are not rewritten for either. What
// no reader needs any more is pruned ([Inbox.PruneRecords], prune.go).

// A Sighting is a candidate that said what a memory already says, or
// extended it: the provenance of that statement. A fact drafted for
// review is recorded as a sighting of its draft.
type Sighting struct {
	Memory     string    `json:"memory"`
	Where      string    `json:"where"`  // project, user or inbox
	Action     Action    `json:"action"` // duplicate or extended
	Source     string    `json:"source,omitempty"`
	Confidence float64   `json:"confidence"`
	Why        string    `json:"why,omitempty"`
	Said       string    `json:"said"` // the candidate's description
	At         time.Time `json:"at"`
	// A draft's sighting (Action drafted, Where inbox) also says why it
	// is a draft and what it was taken from: see [Inbox.Drafting].
	Reasons []Reason `json:"reasons,omitempty"`
	Excerpt string   `json:"excerpt,omitempty"`
	// Rejection is the teammate's rejection the draft repeats
	// ([ReasonTeamRejected]), redacted.
	Rejection *Rejection `json:"rejection,omitempty"`
}

// A LinkKind says what a draft is to the memory it names.
type LinkKind string

const (
	LinkContradicts LinkKind = "contradicts" // the draft disagrees with the memory; both are kept
	LinkChanges     LinkKind = "changes"     // the draft is the memory as it would be changed; approving it changes the memory
	linkClosed      LinkKind = "closed"      // the draft was approved or rejected: its link no longer holds
)

// A Link ties a draft in the inbox to the memory it is about, so that the
// memory can show the draft and review can show the change.
type Link struct {
	Draft  string    `json:"draft"`
	Memory string    `json:"memory,omitempty"`
	Where  string    `json:"where,omitempty"` // project, user or inbox: where the memory is
	Kind   LinkKind  `json:"kind"`
	At     time.Time `json:"at"`
}

// maxRecords bounds what is read of a file of records, the team's
// rejections (which anyone may commit) among them: of a longer file the
// newest records, its last maxRecords bytes, are read. Every reader wants
// the newest most (a link's replay ends with the newest, a draft's
// record is its newest), and pruning ([Inbox.PruneRecords]), which reads
// the whole file, keeps the state's files below it.
const maxRecords = 64 << 20

// maxRecord bounds one record (line) as read: a longer line is skipped.
const maxRecord = 4 << 20

// readJSONL reads the records of a state file, at most its last
// [maxRecords] bytes ([readRecords]).
func readJSONL[T any](path string) ([]T, error) { return readRecords[T](path, maxRecords) }

// readRecords reads the records in the last bound bytes of the file at
// path; a missing file has none, and a damaged line (a crash mid-write,
// one past [maxRecord], the one cut by the bound) is skipped.
func readRecords[T any](path string, bound int64) ([]T, error) {
	f, fi, err := safefile.OpenOwn(path, -1) // a committed one may be a link to a FIFO, a device, anything
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if from := fi.Size() - bound; from > 0 {
		// From the byte before the bound: when it ends a line, the
		// line after it is whole, and only the newline is skipped.
		if _, err := f.Seek(from-1, io.SeekStart); err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	r := bufio.NewReaderSize(io.LimitReader(f, bound+1), 64<<10) // a file may grow while it is read
	if fi.Size() > bound {
		if err := skipLine(r); errors.Is(err, io.EOF) {
			return nil, nil
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	var out []T
	err = eachLine(r, maxRecord, func(line []byte) {
		var v T
		if json.Unmarshal(line, &v) == nil {
			out = append(out, v)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// skipLine reads r past its next newline.
func skipLine(r *bufio.Reader) error {
	for {
		if _, err := r.ReadSlice('\n'); !errors.Is(err, bufio.ErrBufferFull) {
			return err
		}
	}
}

// eachLine calls fn with each line of r (its newline kept) of at most max
// bytes; a longer line is read past, whole, and skipped. The line given
// is fn's only during the call.
func eachLine(r *bufio.Reader, max int, fn func(line []byte)) error {
	var line []byte
	long := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !long {
			if line = append(line, chunk...); len(line) > max {
				line, long = line[:0], true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if !long && len(line) > 0 {
			fn(line)
		}
		line, long = line[:0], false
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Sight records that a candidate said a memory's fact again.
func (in *Inbox) Sight(ctx context.Context, s Sighting) error {
	if err := in.appendRecord(ctx, in.provenance, s); err != nil {
		return fmt.Errorf("inbox: record provenance of %s: %w", s.Memory, err)
	}
	return nil
}

// Sightings returns the statements recorded of a memory (or draft) said
// again or extended, oldest first; the records of drafting are
// [Inbox.Drafting]'s.
func (in *Inbox) Sightings(memory string) ([]Sighting, error) {
	all, err := in.sightings.get(in.provenance, readJSONL[Sighting])
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	var out []Sighting
	for _, s := range all {
		if s.Memory == memory && s.Action != Drafted {
			out = append(out, s)
		}
	}
	return out, nil
}

// link records a draft's link to a memory.
func (in *Inbox) link(ctx context.Context, l Link) error {
	if err := in.appendRecord(ctx, in.links, l); err != nil {
		return fmt.Errorf("inbox: record the link of %s to %s: %w", l.Draft, l.Memory, err)
	}
	return nil
}

// closeLink records that a draft left the inbox, so that its link no longer
// holds (and a later draft of the same name has none).
func (in *Inbox) closeLink(ctx context.Context, draft string, now time.Time) error {
	if l, err := in.LinkOf(draft); err != nil || l.Kind == "" {
		return err
	}
	return in.link(ctx, Link{Draft: draft, Kind: linkClosed, At: now.UTC()})
}

// Links returns the links of the drafts in the inbox, by draft name.
func (in *Inbox) Links() (map[string]Link, error) {
	all, err := in.linkRecs.get(in.links, readJSONL[Link])
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	out := map[string]Link{}
	for _, l := range all {
		if l.Kind == linkClosed {
			delete(out, l.Draft)
			continue
		}
		out[l.Draft] = l
	}
	return out, nil
}

// LinkOf returns the link of a draft; its Kind is empty when it has none.
func (in *Inbox) LinkOf(draft string) (Link, error) {
	links, err := in.Links()
	return links[draft], err
}

// LinksTo returns the links of the drafts that are about a memory: the
// other end of a contradiction or a proposed change.
func (in *Inbox) LinksTo(memory string) ([]Link, error) {
	links, err := in.Links()
	if err != nil {
		return nil, err
	}
	var out []Link
	for _, l := range links {
		if l.Memory == memory {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b Link) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		return strings.Compare(a.Draft, b.Draft)
	})
	return out, nil
}
