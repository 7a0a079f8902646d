package consolidate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/safefile"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// An Inbox is the folder of drafts awaiting review, and the records kept
// beside it in the state folder (rejections, provenance, links). Drafts
// are written holding the project vault's lock: [Consolidator] takes it
// when it drafts, [Inbox.Approve] and [Inbox.Reject] take it themselves
// ([Inbox.LockWith]), so the inbox is safe across processes. The records
// are appended to, one write each, holding the records' lock shared, so
// that pruning ([Inbox.PruneRecords]), which holds it exclusive, never
// replaces a file an append is writing to.
type Inbox struct {
	Dir        string       // <state>/inbox
	rejected   string       // <state>/rejected.jsonl
	team       string       // <vault>/rejected.jsonl, committed: see [Inbox.ShareRejections]
	provenance string       // <state>/provenance.jsonl: see [Sighting]
	links      string       // <state>/links.jsonl: see [Link]
	door       *vault.Vault // the project vault, whose lock serializes the inbox's writers: see [Inbox.LockWith]
	by         string       // who rejects, recorded with each rejection: see [Inbox.As]
	rejects    recordCache[[]rejectedFact]
	sightings  recordCache[[]Sighting]
	linkRecs   recordCache[[]Link]
}

// ErrNoDraft is the error, wrapped, for a draft that is not in the inbox:
// never written, or approved or rejected already (by another process, too).
var ErrNoDraft = errors.New("no draft")

// LockWith makes the inbox's changes take the lock of project, the
// project vault, as consolidation does when it drafts: [Inbox.Approve]
// and [Inbox.Reject] hold it while they re-read the draft and act on it,
// so that two reviewers of one draft never both act. It returns in.
func (in *Inbox) LockWith(project *vault.Vault) *Inbox {
	in.door = project
	return in
}

// InboxFolder is the inbox's folder in a state folder.
const InboxFolder = "inbox"

// OpenInbox returns the inbox of a state folder, creating it.
func OpenInbox(stateDir string) (*Inbox, error) {
	dir := filepath.Join(stateDir, InboxFolder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	return &Inbox{
		Dir: dir, rejected: filepath.Join(stateDir, "rejected.jsonl"),
		provenance: filepath.Join(stateDir, "provenance.jsonl"), links: filepath.Join(stateDir, "links.jsonl"),
	}, nil
}

// TeamRejections is the file in a project vault that holds the rejections
// a team shares: one JSON line per rejected fact, committed with the
// memories and merged by git's union driver (init sets the attribute), so
// that two people rejecting at once never conflict.
const TeamRejections = "rejected.jsonl"

// ShareRejections makes the inbox record rejections in the vault at
// vaultDir, where git shares them, and read them from there as well as
// from the state folder. Drafts stay in the state folder.
func (in *Inbox) ShareRejections(vaultDir string) *Inbox {
	in.team = filepath.Join(vaultDir, TeamRejections)
	return in
}

// As makes the inbox record who rejects a draft, as git names them
// (user.name), so that the team's file says whose each rejection is. It
// returns in.
func (in *Inbox) As(who string) *Inbox {
	in.by = clipLine(who)
	return in
}

// A Draft is a memory awaiting review.
type Draft struct {
	Name   string
	Memory *memory.Memory
}

// Waiting is how many drafts wait for review in the inbox of a state
// folder: the one count that the session's reminder, 'mnemo stats' and
// 'mnemo doctor' give. It reads the folder only (a hook calls it), and it
// counts a damaged draft too: it waits for the person as well.
func Waiting(stateDir string) int {
	des, err := os.ReadDir(filepath.Join(stateDir, InboxFolder))
	if err != nil {
		return 0
	}
	n := 0
	for _, de := range des {
		if _, ok := draftName(de.Name()); ok {
			n++
		}
	}
	return n
}

// draftName is the draft a file of the inbox folder holds: name.md, not a
// dotted temp file.
func draftName(file string) (string, bool) {
	name, ok := strings.CutSuffix(file, ".md")
	return name, ok && !strings.HasPrefix(name, ".")
}

// List returns the drafts, oldest first.
func (in *Inbox) List() ([]Draft, error) {
	des, err := os.ReadDir(in.Dir)
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	var out []Draft
	for _, de := range des {
		name, ok := draftName(de.Name())
		if !ok {
			continue
		}
		m, err := in.Load(name)
		if err != nil {
			continue // a damaged draft is left for the person to see in the folder
		}
		out = append(out, Draft{Name: name, Memory: m})
	}
	slices.SortFunc(out, func(a, b Draft) int {
		if c := a.Memory.Created.Compare(b.Memory.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

// Load reads one draft.
func (in *Inbox) Load(name string) (*memory.Memory, error) {
	data, err := in.read(name)
	if err != nil {
		return nil, err
	}
	m, err := memory.Parse(filepath.Join(in.Dir, name+".md"), data)
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	return m, nil
}

// read returns the text of one draft's file.
func (in *Inbox) read(name string) ([]byte, error) {
	if !memory.ValidName(name) {
		return nil, fmt.Errorf("inbox: %q is not a memory name", name)
	}
	data, err := safefile.Read(filepath.Join(in.Dir, name+".md"), memory.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("inbox: %w %s", ErrNoDraft, name)
	}
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	return data, nil
}

// Put writes a draft, replacing one of the same name.
func (in *Inbox) Put(m *memory.Memory) error {
	if err := vault.Secrets(m); err != nil {
		return fmt.Errorf("inbox: %w", err)
	}
	if err := vault.CheckReadable(m, m.Name+".md"); err != nil {
		return fmt.Errorf("inbox: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(in.Dir, m.Name+".md"), m.Render(), 0o644); err != nil {
		return fmt.Errorf("inbox: %w", err)
	}
	return nil
}

// Approve moves a draft into the vault v (under a free name) and
// regenerates MEMORY.md; edit, when not nil, may change the memory first.
// It returns the name the memory got. A draft that proposes a change to a
// memory of v (its link is [LinkChanges]) changes that memory instead;
// when that memory is gone, the draft becomes a new memory.
//
// It acts holding the project vault's lock ([Inbox.LockWith]) and v's:
// it reads the draft again under them and acts only when it is still
// there and unchanged, so of two reviewers of one draft one approves it
// and the other gets an error wrapping [ErrNoDraft]. edit runs before the
// lock is taken (a person may be editing), on the draft as it was then.
func (in *Inbox) Approve(ctx context.Context, v *vault.Vault, name string, now time.Time, edit func(*memory.Memory) error) (string, error) {
	m, err := in.Load(name)
	if err != nil {
		return "", err
	}
	seen := m.Render()
	if edit != nil {
		if err := edit(m); err != nil {
			return "", err
		}
	}
	unlock, err := in.lock(ctx, v)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := in.unchanged(name, seen); err != nil {
		return "", err
	}
	link, err := in.LinkOf(name)
	if err != nil {
		return "", err
	}
	m.Updated = now
	m.Status = memory.StatusActive
	if !m.Reviewed() { // a draft without a source: a person's approval is its review
		m.Source = memory.SourceNative
	}
	got, err := approveLocked(v, m, link)
	if err != nil && !vault.Saved(err) {
		return "", err
	}
	behind := err // the memory is saved; MEMORY.md is behind: the draft goes all the same
	if err := in.removeLocked(ctx, name, now); err != nil {
		return got, err
	}
	return got, behind
}

// lock takes the project vault's lock and, when v has another, v's too.
func (in *Inbox) lock(ctx context.Context, v *vault.Vault) (unlock func(), err error) {
	if in.door == nil {
		return nil, errors.New("inbox: no project vault to lock (LockWith was not called)")
	}
	unlockDoor, err := in.door.Lock(ctx)
	if err != nil {
		return nil, err
	}
	if v == nil || v.SharesLock(in.door) {
		return unlockDoor, nil
	}
	unlockV, err := v.Lock(ctx)
	if err != nil {
		unlockDoor()
		return nil, err
	}
	return func() { unlockV(); unlockDoor() }, nil
}

// unchanged checks, under the lock, that the draft is still in the inbox
// as it was read before.
func (in *Inbox) unchanged(name string, seen []byte) error {
	now, err := in.Load(name)
	if err != nil {
		return err
	}
	if !bytes.Equal(now.Render(), seen) {
		return fmt.Errorf("inbox: draft %s changed meanwhile: look at it again", name)
	}
	return nil
}

// removeLocked takes a reviewed draft out of the inbox and closes its link.
func (in *Inbox) removeLocked(ctx context.Context, name string, now time.Time) error {
	if err := os.Remove(filepath.Join(in.Dir, name+".md")); err != nil {
		return fmt.Errorf("inbox: %w", err)
	}
	return in.closeLink(ctx, name, now)
}

// approveLocked writes an approved draft into v, whose lock the caller
// holds: as the change it proposes to the memory it links, or as a new
// memory under a free name.
func approveLocked(v *vault.Vault, m *memory.Memory, link Link) (string, error) {
	if link.Kind == LinkChanges {
		_, err := v.UpdateLocked(link.Memory, func(old *memory.Memory) error {
			old.Description, old.Body, old.Updated = m.Description, m.Body, m.Updated
			old.Confidence = max(old.Confidence, m.Confidence)
			if !m.Anchors.IsZero() {
				old.Anchors = m.Anchors
			}
			return nil
		})
		if err == nil {
			return link.Memory, v.ReindexAfter(link.Memory)
		}
		if !errors.Is(err, vault.ErrNotFound) {
			return "", err
		}
	}
	m.Name = v.FreeName(m.Name)
	if err := v.CreateLocked(m); err != nil {
		return "", err
	}
	return m.Name, v.ReindexAfter(m.Name)
}

// Reject deletes a draft and remembers it, so that the same fact, and a
// rewording of it that names the same values, is not proposed again. Like
// [Inbox.Approve] it acts holding the project vault's lock, on the draft
// as it is then: a draft approved or rejected meanwhile gives an error
// wrapping [ErrNoDraft], and nothing is recorded.
//
// The rejection is recorded in the state folder, as this person's own
// (see [Rejection.Own]), and, when the inbox shares rejections, in the
// team's file too, with who rejected it ([Inbox.As]).
func (in *Inbox) Reject(ctx context.Context, name, reason string, now time.Time) error {
	unlock, err := in.lock(ctx, nil)
	if err != nil {
		return err
	}
	defer unlock()
	m, err := in.Load(name)
	if err != nil {
		return err
	}
	r := Rejection{Name: name, Description: redact.String(m.Description), Body: redact.String(m.Body),
		Reason: redact.String(reason), By: in.by, At: now.UTC()} // a draft written by hand may hold a secret: the record never does
	// The team's first: when that write fails, nothing is recorded; when
	// the own one does, the draft stays and the line in the team's file
	// counts as the team's, never as a veto.
	for _, to := range []string{in.team, in.rejected} {
		if to == "" {
			continue
		}
		if err := safefile.AppendJSON(to, r, 0o644); err != nil { // the team's file is committed: a symlink there must not write elsewhere
			return fmt.Errorf("inbox: record rejection: %w", err)
		}
	}
	return in.removeLocked(ctx, name, now)
}

// Expire takes out of the inbox a draft that waited past its time, as
// 'mnemo gc --apply' does. No one judged it, so it is no rejection:
// nothing goes to rejected.jsonl, this person's or the team's, and a fact
// like it may be drafted again, or kept when a person states it (a
// rejection would drop it for good: [vetoes]). Nothing is lost either:
// the draft is kept as a memory removed from the project vault is, in the
// state folder's forgotten/, recorded with r's reason
// ([vault.Vault.KeepLocked]), and its link is closed. Like [Inbox.Reject]
// it acts holding the project vault's lock, on the draft as it is then. It
// returns where the copy went.
func (in *Inbox) Expire(ctx context.Context, name string, r vault.Removal) (string, error) {
	unlock, err := in.lock(ctx, nil)
	if err != nil {
		return "", err
	}
	defer unlock()
	data, err := in.read(name)
	if err != nil {
		return "", err
	}
	dest, err := in.door.KeepLocked(r, name, data)
	if err != nil {
		return "", fmt.Errorf("inbox: expire %s: %w", name, err)
	}
	return dest, in.removeLocked(ctx, name, r.At)
}

// rejections returns what was rejected, read from each file again only
// when it changed since the last call (see [recordCache]).
func (in *Inbox) rejections() ([]rejectedFact, error) {
	out, err := in.rejects.get(in.rejected, readRejections(true))
	if err != nil {
		return nil, fmt.Errorf("inbox: %w", err)
	}
	if in.team != "" {
		team, err := in.rejects.get(in.team, readRejections(false))
		if err != nil {
			return nil, fmt.Errorf("inbox: %w", err)
		}
		out = append(slices.Clip(out), team...)
	}
	return out, nil
}
