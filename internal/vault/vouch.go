package vault

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mnemo-dev/mnemo/internal/instruction"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// A memory file's header says who stands behind it (source: manual,
// agent, session:…), but anyone who can write the file can write that
// line: Claude Code's auto memory writes into the vault, so the agent can
// forge a reviewed memory. mnemo therefore vouches for a header only when
// it wrote those very bytes and has not replaced or deleted them since (the
// hashes of its writes, and of what it took back, are kept in the state
// folder, beside the lock, where the vault's git never sees them), or
// when a teammate's commit gave the file those bytes: git's HEAD holds
// them under that name and no commit this clone made gave them (see
// origin.go: a commit made here, by the agent or by a person sweeping in
// what the agent wrote, is no one's review). Any other file with a source
// is disowned ([memory.Memory.Disown]): a native write, kept out of
// MEMORY.md and the hooks, marked in recall, listed by 'mnemo inbox' with
// why.
//
// A commit may be anyone's (a cloned repository, a pull request), so git
// vouches only for what a teammate may share unreviewed: a file that tells
// the agent to pipe a download into a shell, fetch a URL or change a
// permission or setting ([planted]) is vouched for only by mnemo's own
// write on this machine, a person's command or approval. A command to run
// is shared ("run make gen before committing"): the repository's own
// commands are the repository's already (its Makefile, its scripts); what
// a memory could add beyond them is outside code, an outside text to
// follow, or a lifted guard. A secret is redacted wherever a memory is
// read, so it needs no review to be harmless.

// writtenFile lists the SHA-256 of every memory file mnemo wrote to the
// vault, one hex digest a line, appended; a digest taken back (-digest) or
// held for a commit made here (!digest commit) has a line of its own.
const writtenFile = "written.sha256"

// maxWrittenFile bounds the list as read: 1.3 million writes.
const maxWrittenFile = 64 << 20

// vouches is what the vault vouches for: the list of writes as last read.
type vouches struct {
	mu   sync.Mutex // guards following
	size int64      // of the file when read; -1 before
	list *list      // nil before it is read
}

// A list is the list of writes as read: the digests of the files mnemo
// vouches for, and of those a commit made in this clone, or this person's
// commit in another, gave their bytes, which git does not vouch for
// ([Vault.hold]).
type list struct {
	vouched map[string]bool
	held    map[string]origin // digest → the commit (madeHere or ownElsewhere)
}

// newList returns an empty list.
func newList() *list { return &list{vouched: make(map[string]bool), held: make(map[string]origin)} }

// apply adds a line of the list file to l: a digest vouched for, one taken
// back, or one held with its commit; any other line is none.
func (l *list) apply(line string) {
	if rest, ok := strings.CutPrefix(line, heldMark); ok {
		d, rest, _ := strings.Cut(rest, " ")
		commit, email, _ := strings.Cut(rest, " ")
		o := origin{kind: madeHere, commit: commit}
		if email != "" {
			o.kind, o.email = ownElsewhere, email
		}
		if len(d) == sha256.Size*2 && memory.ValidCommit(commit) && validEmail(email) {
			l.held[d] = o
		}
		return
	}
	switch d, back := strings.CutPrefix(line, revoked); {
	case len(d) != sha256.Size*2:
	case back:
		delete(l.vouched, d)
	default:
		l.vouched[d] = true
	}
}

// lookup says whether l vouches for the digest d, and whether it is held,
// with the commit it is held for. l may be nil (nothing read: nothing
// vouched for).
func (l *list) lookup(d string) (vouched bool, held origin, isHeld bool) {
	if l == nil {
		return false, origin{}, false
	}
	held, isHeld = l.held[d]
	return l.vouched[d], held, isHeld
}

// validEmail reports whether s may stand as the address of a held line:
// one word of printable characters, or none.
func validEmail(s string) bool {
	return len(s) <= 254 && !strings.ContainsFunc(s, func(r rune) bool { return r <= ' ' || r == 0x7f })
}

func (v *Vault) writtenPath() string {
	if v.stateDir() == "" {
		return ""
	}
	return filepath.Join(v.stateDir(), writtenFile)
}

// vouch records that mnemo wrote data to a memory file of the vault. It
// fails only the record, never the write it follows: the file is then
// disowned until a person approves it, which is the safe side.
func (v *Vault) vouch(data ...[]byte) error { return v.record(true, data...) }

// revoke records that mnemo replaced or deleted the file that held data:
// those bytes, written back by anyone (a version since corrected, a memory
// deleted), are no longer mnemo's to vouch for; a teammate's commit may
// still give them. A vault without a list has nothing to revoke.
func (v *Vault) revoke(data []byte) error {
	return v.appendExisting(revoked + digest(data))
}

// hold records that a commit made in this clone, or this person's commit
// made in another (o), gave a file the bytes data: git does not vouch for
// them, now or once the reflog that says so has expired (git's default
// keeps it 90 days), and need not be asked again (a walk of the folder's
// history, for a commit made elsewhere). Only a person's approval, which
// writes other bytes, or mnemo's own write of these bytes, does.
func (v *Vault) hold(data []byte, o origin) error {
	return v.appendExisting(holdLine(data, o))
}

// holdLine is the line of the list that holds data for o's commit: the
// digest, the commit, and for a commit made elsewhere the address it names.
func holdLine(data []byte, o origin) string {
	line := heldMark + digest(data) + " " + o.commit
	if o.kind == ownElsewhere && o.email != "" && validEmail(o.email) {
		line += " " + o.email
	}
	return line
}

// appendExisting appends line to the list of writes when the vault has one.
func (v *Vault) appendExisting(line string) error {
	if _, err := os.Stat(v.writtenPath()); v.writtenPath() == "" || err != nil {
		return nil
	}
	return v.appendList([]string{line})
}

// revoked starts a line of the list that takes back the digest after it;
// heldMark one that holds the digest after it, for the commit after that.
const (
	revoked  = "-"
	heldMark = "!"
)

// record appends the digests of data to the list of writes. With seed, a
// vault without a list yet gets one that starts with its files as they
// are (see [pass]): a first write must not disown them.
func (v *Vault) record(seed bool, data ...[]byte) error {
	path := v.writtenPath()
	if path == "" {
		return nil
	}
	if _, err := os.Stat(path); seed && errors.Is(err, fs.ErrNotExist) {
		data = append(append(data, v.folderFiles()...), nil)
	}
	lines := make([]string, len(data))
	for i, d := range data {
		lines[i] = digest(d)
	}
	return v.appendList(lines)
}

// appendList appends lines (digests, and digests taken back or held) to
// the list of writes, and to the list as read.
func (v *Vault) appendList(lines []string) error {
	path := v.writtenPath()
	if len(lines) == 0 {
		return nil
	}
	text := strings.Join(lines, "\n") + "\n"
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return nil // no state folder: a read (doctor's) creates none, and a write has one (its lock)
	}
	// One write of whole lines, appended: several writers interleave
	// lines, never bytes.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("vault: record a write: %w", err)
	}
	_, err = f.WriteString(text)
	var fi fs.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("vault: record a write: %w", err)
	}
	v.vouches.mu.Lock()
	if l := v.vouches.list; l != nil {
		for _, line := range lines {
			l.apply(line)
		}
		// The list as read plus these lines is the file, unless another
		// process appended too: then the next read reads it again.
		if fi.Size() == v.vouches.size+int64(len(text)) {
			v.vouches.size = fi.Size()
		}
	}
	v.vouches.mu.Unlock()
	return nil
}

// readList returns the list of writes, or ok false when the vault has no
// list yet on this machine (a fresh state folder, or a build from before
// the list).
func (v *Vault) readList() (l *list, ok bool) {
	path := v.writtenPath()
	v.vouches.mu.Lock()
	defer v.vouches.mu.Unlock()
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		return v.vouches.list, true // nil when never read: nothing vouched for
	}
	if v.vouches.list != nil && fi.Size() == v.vouches.size {
		return v.vouches.list, true
	}
	data, err := safefile.Read(path, maxWrittenFile)
	if err != nil {
		return v.vouches.list, true
	}
	l = newList()
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() { // in order: a digest taken back may be vouched for again
		l.apply(sc.Text())
	}
	v.vouches.list, v.vouches.size = l, int64(len(data))
	return l, true
}

// A pass is one read of the vault's files (a List, or a Load): it reads
// the list of writes once and asks git each question at most once. The
// first time a vault is read on a machine (no list yet) every memory file
// there is taken as vouched for and the list starts with them, so that an
// upgrade disowns nothing it had trusted (see [seeds]).
type pass struct {
	v       *Vault
	list    *list
	seeding bool // no list yet: the files read are the first
	git     *gitView

	mu    sync.Mutex // guards following
	seen  [][]byte   // while seeding: the files read, for the list
	holds []string   // while seeding: the lines holding files a commit made here gave
}

// newPass starts a read of the vault; whole says that it reads every file
// (a List), else a pass without a list seeds it from the folder first.
func (v *Vault) newPass(whole bool) *pass {
	p := &pass{v: v, git: v.newGitView()}
	if v.writtenPath() == "" {
		return p
	}
	l, ok := v.readList()
	switch {
	case ok:
		p.list = l
	case whole:
		p.seeding = true
	default:
		v.record(true) // the list, started from the folder
		p.list, _ = v.readList()
	}
	return p
}

// done ends the pass: a seeding pass writes the list it started, then
// what it found held.
func (p *pass) done() {
	if !p.seeding {
		return
	}
	if p.v.record(false, append(p.seen, nil)...) == nil { // nil: the empty file's line, so that an empty vault still gets its list
		p.v.appendList(p.holds)
	}
}

// folderFiles returns the content of the vault's memory files that start
// its list of writes (see [seeds]).
func (v *Vault) folderFiles() [][]byte {
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		return nil
	}
	g := v.newGitView()
	var all [][]byte
	for _, de := range des {
		if !isMemoryFile(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		data, err := safefile.Read(filepath.Join(v.Dir, de.Name()), memory.MaxFileSize)
		if err != nil {
			continue
		}
		if m, err := memory.Parse(de.Name(), data); err == nil {
			if ok, _ := seeds(m, de.Name(), data, g); !ok {
				continue // what a commit made here gave is held by the next read
			}
		}
		all = append(all, data)
	}
	return all
}

// seeds reports whether the first read of a vault on a machine (no list of
// writes yet: a new machine, an upgrade, the state folder deleted) takes
// the file as mnemo's own write, and where git says its bytes came from.
// Outside git it does, so that an upgrade disowns nothing it had trusted,
// unless the file plants an instruction. In a git work tree only what a
// teammate's commit gave is: a file there that names a source and that
// git does not hold, or that a commit made here gave, may be the agent's
// native write with a forged header, which deleting the state folder (a
// cache) must not launder; mnemo's own writes of this clone then wait for
// approval.
func seeds(m *memory.Memory, file string, data []byte, g *gitView) (ok bool, o origin) {
	if planted(m) {
		return false, origin{}
	}
	if m.Source == "" || !g.inGit() {
		return true, origin{}
	}
	o = g.origin(file, data)
	return o.kind == arrived, o
}

// disownForged disowns m, read from the file name.md with content data,
// when its header names a source that mnemo cannot vouch for, saying why.
// git is asked (once per pass) only about files not in the list.
func (p *pass) disownForged(name string, data []byte, m *memory.Memory) {
	if m.Source == "" {
		return // a native write says so itself
	}
	if p.v.writtenPath() == "" {
		if planted(m) {
			m.Disown("") // a vault without state (a mount) vouches by header, but not for this
		}
		return
	}
	// p.list is the vault's own, which a write (another goroutine's
	// vouch, below) adds to under its mutex.
	d := digest(data)
	p.v.vouches.mu.Lock()
	vouched, held, isHeld := p.list.lookup(d)
	p.v.vouches.mu.Unlock()
	switch {
	case vouched:
		return
	case isHeld:
		m.Disown(held.why()) // git need not be asked again
		return
	case p.seeding:
		ok, o := seeds(m, name+".md", data, p.git)
		if !ok {
			m.Disown(o.why())
		}
		p.mu.Lock()
		if ok {
			p.seen = append(p.seen, data)
		} else if o.kind == madeHere || o.kind == ownElsewhere {
			p.holds = append(p.holds, holdLine(data, o))
		}
		p.mu.Unlock()
		return
	case planted(m):
		m.Disown("") // git never vouches for it
		return
	}
	switch o := p.git.origin(name+".md", data); o.kind {
	case arrived:
		p.v.vouch(data) // a teammate's: the next read need not ask git
	case madeHere, ownElsewhere:
		p.v.hold(data, o)
		m.Disown(o.why())
	default:
		m.Disown(o.why()) // neither mnemo's writes nor a teammate's commit vouch for it
	}
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// planted reports whether what m shows the agent ([memory.Memory.Shown])
// gives it an instruction that brings in what the repository does not
// hold, or lifts a guard: what git must not vouch for (see above).
func planted(m *memory.Memory) bool {
	return plantedKind(m.Shown()) != ""
}

// plantedKind returns the kind of instruction text gives that git must not
// vouch for ([instruction.Kind] but a command to run), or "".
func plantedKind(text string) string {
	if k := instruction.Kind(text); k != instruction.RunCommand {
		return k
	}
	return ""
}
