package vault

import (
	"bufio"
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

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
// when git's HEAD holds them under that name (a teammate's memory, or
// one committed, which is a person's review). Any other file with a
// source is disowned ([memory.Memory.Disown]): a native write, kept out of
// MEMORY.md and the hooks, marked in recall, listed by 'mnemo inbox'.
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
// vault, one hex digest a line, appended.
const writtenFile = "written.sha256"

// maxWrittenFile bounds the list as read: 1.3 million writes.
const maxWrittenFile = 64 << 20

// vouches is what the vault vouches for: the list of writes as last read.
type vouches struct {
	mu     sync.Mutex // guards following
	size   int64      // of the file when read; -1 before
	hashes map[string]bool
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
// deleted), are no longer mnemo's to vouch for; git's HEAD may still hold
// them. A vault without a list has nothing to revoke.
func (v *Vault) revoke(data []byte) error {
	if _, err := os.Stat(v.writtenPath()); v.writtenPath() == "" || err != nil {
		return nil
	}
	return v.appendList([]string{revoked + digest(data)})
}

// revoked starts a line of the list that takes back the digest after it.
const revoked = "-"

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

// appendList appends lines (digests, and digests taken back) to the list
// of writes, and to the list as read.
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
	if v.vouches.hashes != nil {
		for _, l := range lines {
			applyLine(v.vouches.hashes, l)
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

// applyLine adds a line of the list to hashes: a digest vouched for, or
// one taken back; any other line is none.
func applyLine(hashes map[string]bool, line string) {
	switch d, back := strings.CutPrefix(line, revoked); {
	case len(d) != sha256.Size*2:
	case back:
		delete(hashes, d)
	default:
		hashes[d] = true
	}
}

// vouchedHashes returns the digests of mnemo's writes, or ok false when
// the vault has no list yet on this machine (a fresh state folder, or a
// build from before the list).
func (v *Vault) vouchedHashes() (hashes map[string]bool, ok bool) {
	path := v.writtenPath()
	v.vouches.mu.Lock()
	defer v.vouches.mu.Unlock()
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		return v.vouches.hashes, true // nil when never read: nothing vouched for
	}
	if v.vouches.hashes != nil && fi.Size() == v.vouches.size {
		return v.vouches.hashes, true
	}
	data, err := safefile.Read(path, maxWrittenFile)
	if err != nil {
		return v.vouches.hashes, true
	}
	hashes = make(map[string]bool)
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() { // in order: a digest taken back may be vouched for again
		applyLine(hashes, sc.Text())
	}
	v.vouches.hashes, v.vouches.size = hashes, int64(len(data))
	return hashes, true
}

// A pass is one read of the vault's files (a List, or a Load): it reads
// the list of writes once and asks git at most once. The first time a
// vault is read on a machine (no list yet) every memory file there is
// taken as vouched for and the list starts with them, so that an upgrade
// disowns nothing it had trusted.
type pass struct {
	v       *Vault
	hashes  map[string]bool
	seeding bool // no list yet: the files read are the first
	blobs   func() map[string]string
	inGit   func() bool

	mu   sync.Mutex // guards seen
	seen [][]byte   // while seeding: the files read, for the list
}

// newPass starts a read of the vault; whole says that it reads every file
// (a List), else a pass without a list seeds it from the folder first.
func (v *Vault) newPass(whole bool) *pass {
	p := &pass{v: v, blobs: sync.OnceValue(v.headBlobs), inGit: sync.OnceValue(v.inGit)}
	if v.writtenPath() == "" {
		return p
	}
	hashes, ok := v.vouchedHashes()
	switch {
	case ok:
		p.hashes = hashes
	case whole:
		p.seeding = true
	default:
		v.record(true) // the list, started from the folder
		p.hashes, _ = v.vouchedHashes()
	}
	return p
}

// done ends the pass: a seeding pass writes the list it started.
func (p *pass) done() {
	if p.seeding {
		p.v.record(false, append(p.seen, nil)...) // nil: the empty file's line, so that an empty vault still gets its list
	}
}

// folderFiles returns the content of the vault's memory files that start
// its list of writes (see [seeds]).
func (v *Vault) folderFiles() [][]byte {
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		return nil
	}
	inGit, blobs := sync.OnceValue(v.inGit), sync.OnceValue(v.headBlobs)
	var all [][]byte
	for _, de := range des {
		if !isMemoryFile(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		data, err := safefile.Read(filepath.Join(v.Dir, de.Name()), memory.MaxFileSize)
		if err != nil {
			continue
		}
		if m, err := memory.Parse(de.Name(), data); err == nil && !seeds(m, de.Name(), data, inGit, blobs) {
			continue
		}
		all = append(all, data)
	}
	return all
}

// seeds reports whether the first read of a vault on a machine (no list of
// writes yet: a new machine, an upgrade, the state folder deleted) takes
// the file as mnemo's own write. Outside git it does, so that an upgrade
// disowns nothing it had trusted, unless the file plants an instruction.
// In a git work tree only what git's HEAD holds is: a file there that git
// does not hold and that names a source may be the agent's native write
// with a forged header, which deleting the state folder (a cache) must not
// launder; mnemo's own uncommitted writes then wait for approval.
func seeds(m *memory.Memory, file string, data []byte, inGit func() bool, blobs func() map[string]string) bool {
	if planted(m) {
		return false
	}
	return m.Source == "" || !inGit() || committed(blobs(), file, data)
}

// committed reports whether blobs (by file name) hold data as the file.
func committed(blobs map[string]string, file string, data []byte) bool {
	oid, ok := blobs[file]
	return ok && oid == gitBlobID(data, len(oid))
}

// disownForged disowns m, read from the file name.md with content data,
// when its header names a source that mnemo cannot vouch for. git is
// asked (once per pass) only about files not in the list.
func (p *pass) disownForged(name string, data []byte, m *memory.Memory) {
	if m.Source == "" {
		return // a native write says so itself
	}
	if p.v.writtenPath() == "" {
		if planted(m) {
			m.Disown() // a vault without state (a mount) vouches by header, but not for this
		}
		return
	}
	// p.hashes is the vault's own set, which a write (another goroutine's
	// vouch, below) adds to under its mutex.
	p.v.vouches.mu.Lock()
	vouched := p.hashes[digest(data)]
	p.v.vouches.mu.Unlock()
	if vouched {
		return
	}
	if p.seeding {
		if !seeds(m, name+".md", data, p.inGit, p.blobs) {
			m.Disown()
			return
		}
		p.mu.Lock()
		p.seen = append(p.seen, data)
		p.mu.Unlock()
		return
	}
	if !planted(m) && committed(p.blobs(), name+".md", data) {
		p.v.vouch(data) // committed: the next read need not ask git
		return
	}
	m.Disown() // neither mnemo's writes nor git vouch for it
}

// headBlobs returns the blob ids of the files in the vault's folder as
// git's HEAD holds them, by name, and as MERGE_HEAD does during a merge
// (a teammate's memory arrives in a merge that a conflict in MEMORY.md
// stopped); none outside git or before a commit.
func (v *Vault) headBlobs() map[string]string {
	blobs := make(map[string]string)
	for _, rev := range []string{"MERGE_HEAD", "HEAD"} { // HEAD's win
		v.treeBlobs(rev, blobs)
	}
	return blobs
}

// inGit reports whether the vault's folder is in a git work tree.
func (v *Vault) inGit() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", v.Dir, "rev-parse", "--is-inside-work-tree")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// treeBlobs adds the blob ids of the folder's files in the commit rev.
func (v *Vault) treeBlobs(rev string, blobs map[string]string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", v.Dir, "ls-tree", "-z", rev, "--", ".")
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	if err != nil {
		return // no such commit, or not in git
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		meta, file, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" && !strings.Contains(file, "/") {
			blobs[file] = f[2]
		}
	}
}

// gitBlobID is git's object id of a file holding data: SHA-1, or SHA-256
// in a repository of that format (an id of 64 hex digits).
func gitBlobID(data []byte, idLen int) string {
	header := fmt.Sprintf("blob %d\x00", len(data))
	if idLen == sha256.Size*2 {
		h := sha256.New()
		h.Write([]byte(header))
		h.Write(data)
		return hex.EncodeToString(h.Sum(nil))
	}
	h := sha1.New()
	h.Write([]byte(header))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
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
