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

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// A memory file's header says who stands behind it (source: manual,
// agent, session:…), but anyone who can write the file can write that
// line: Claude Code's auto memory writes into the vault, so the agent can
// forge a reviewed memory. mnemo therefore vouches for a header only when
// it wrote those very bytes (the hashes of its writes are kept in the
// state folder, beside the lock, where the vault's git never sees them),
// or when git's HEAD holds them under that name (a teammate's memory, or
// one committed, which is a person's review). Any other file with a
// source is disowned ([memory.Memory.Disown]): a native write, kept out of
// MEMORY.md and the hooks, marked in recall, listed by 'mnemo inbox'.

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
	if v.lockPath == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(v.lockPath), writtenFile)
}

// vouch records that mnemo wrote data to a memory file of the vault. It
// fails only the record, never the write it follows: the file is then
// disowned until a person approves it, which is the safe side.
func (v *Vault) vouch(data ...[]byte) error {
	path := v.writtenPath()
	if path == "" || len(data) == 0 {
		return nil
	}
	var b strings.Builder
	for _, d := range data {
		b.WriteString(digest(d) + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("vault: record a write: %w", err)
	}
	// One write of whole lines, appended: several writers interleave
	// lines, never bytes.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("vault: record a write: %w", err)
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("vault: record a write: %w", err)
	}
	v.vouches.mu.Lock()
	if v.vouches.hashes != nil {
		for _, d := range data {
			v.vouches.hashes[digest(d)] = true
		}
	}
	v.vouches.mu.Unlock()
	return nil
}

// vouchedHashes returns the digests of mnemo's writes. The first time a
// vault is read on a machine (no list yet: a fresh state folder, or a
// build from before the list) every memory file there is taken as
// vouched for, so that an upgrade disowns nothing it had trusted.
func (v *Vault) vouchedHashes() map[string]bool {
	path := v.writtenPath()
	v.vouches.mu.Lock()
	defer v.vouches.mu.Unlock()
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		v.vouches.mu.Unlock()
		v.seed()
		v.vouches.mu.Lock()
		fi, err = os.Stat(path)
	}
	if err != nil {
		return v.vouches.hashes // nil when never read: nothing vouched for
	}
	if v.vouches.hashes != nil && fi.Size() == v.vouches.size {
		return v.vouches.hashes
	}
	data, err := safefile.Read(path, maxWrittenFile)
	if err != nil {
		return v.vouches.hashes
	}
	hashes := make(map[string]bool)
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		if line := sc.Text(); len(line) == sha256.Size*2 {
			hashes[line] = true
		}
	}
	v.vouches.hashes, v.vouches.size = hashes, int64(len(data))
	return hashes
}

// seed starts the list of writes with the memory files there are now.
func (v *Vault) seed() {
	des, err := os.ReadDir(v.Dir)
	if err != nil {
		return
	}
	var all [][]byte
	for _, de := range des {
		if !isMemoryFile(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		if data, err := safefile.Read(filepath.Join(v.Dir, de.Name()), memory.MaxFileSize); err == nil {
			all = append(all, data)
		}
	}
	all = append(all, nil) // the empty file's line, so that an empty vault still gets its list
	v.vouch(all...)
}

// disownForged disowns m, read from the file name.md with content data,
// when its header names a source that mnemo cannot vouch for. git is
// asked (once per call of blobs) only about files not in the list.
func (v *Vault) disownForged(name string, data []byte, m *memory.Memory, blobs func() map[string]string) {
	if m.Source == "" || v.writtenPath() == "" {
		return // a native write says so itself; a vault without state vouches by header
	}
	if v.vouchedHashes()[digest(data)] {
		return
	}
	if oid, ok := blobs()[name+".md"]; ok && oid == gitBlobID(data, len(oid)) {
		v.vouch(data) // committed: the next read need not ask git
		return
	}
	m.Disown()
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

// onceBlobs returns a function that asks git for [Vault.headBlobs] on its
// first call only.
func (v *Vault) onceBlobs() func() map[string]string { return sync.OnceValue(v.headBlobs) }

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
