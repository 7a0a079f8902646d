package vault

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Where a committed memory file came from. git vouches for a memory file's
// header only when its bytes came from another clone: git's HEAD (or
// MERGE_HEAD, during a merge) holds them under the file's name, and no
// commit this clone made gave the file those bytes. A commit made here is
// no one's review: an agent runs 'git commit' and 'git push' as easily as
// it writes the file, and a person's 'git commit -a' sweeps in what the
// agent wrote. What this clone fetched (a clone, a pull, from a named
// remote or a URL) from another person is the team's, as the code that came with it is; what
// this clone pushed stays its own here, since its reflog names the commit
// as made here, and in the person's other clones, since the commit names
// them (own.go).
//
// The clone's reflogs tell the two apart. An entry that moved HEAD or a
// branch to a commit already there has one of a few messages (clone, a
// fetch into a branch, a fast-forward, checkout, reset, branch, a rebase's
// start and finish: [movedRE]); any other entry (commit, amend, merge,
// cherry-pick, revert, am, a rebase's picks, or a message git may add
// later) names a commit made here: the safe side. Then the commits made
// here are asked what they changed in the folder (a merge only what
// differs from every parent: a conflict it resolved). When HEAD's reflog
// does not name the commit HEAD is at (reflogs turned off, a ref written
// by hand), mnemo cannot tell, and no commit vouches.
//
// Git's records in the clone are files the agent can write too: this stops
// the ordinary path (an agent's or a person's commit, amend, merge, push),
// not an agent that rewrites the reflog itself.

// movedRE matches the reflog messages of entries that moved a ref to a
// commit that was there already: the commit was not made by that move.
var movedRE = lazyregexp.New(`^(?:clone: |checkout: moving from |reset: moving to |branch: |Branch: renamed |initial pull$|update by push$|fetch\b)` +
	`|: (?:[Ff]ast-forward|storing head|forced-update)$` +
	`| \((?:start|finish|abort)\): `)

// An originKind says where the bytes of a memory file came from.
type originKind int

const (
	uncommitted   originKind = iota // git's HEAD (or MERGE_HEAD) holds other bytes under the name, or none
	arrived                         // no commit this clone made gave them: another clone's did
	madeHere                        // a commit this clone made gave them
	untold                          // committed, but the reflog cannot say whether here
	ownElsewhere                    // another clone's commit gave them, but this person authored or committed it
	unknownAuthor                   // another clone's commit gave them, but git could not say whose
)

// An origin is where a memory file's bytes came from, and the commit made
// here (or by this person elsewhere) that gave them.
type origin struct {
	kind   originKind
	commit string
	email  string // ownElsewhere: the person's address the commit names
}

// why says, for a person, why the origin vouches for nothing: "" when
// there is nothing to add to "written outside mnemo".
func (o origin) why() string {
	switch o.kind {
	case madeHere:
		return "committed in this clone (" + o.commit[:min(len(o.commit), 12)] + "), and a commit made here is not a review"
	case untold:
		return "committed, but this clone's reflog does not say whether the commit was made here, so no commit vouches for it"
	case unknownAuthor:
		return "committed in another clone, but git could not say by whom, so no commit vouches for it"
	case ownElsewhere:
		return "committed by you (" + o.email + ") in another clone (" + o.commit[:min(len(o.commit), 12)] + "), and your own commit is not another person's review"
	}
	return ""
}

// A gitView is what git says of the vault's folder, each part asked once
// (for a pass) and only when needed. It is safe for concurrent use.
type gitView struct {
	where func() gitPlace
	tree  func() map[string]string // blob ids by file name: see [Vault.headTree]
	made  func() (made map[fileBlob]string, ok bool)
	own   func() (map[fileBlob]ownCommit, bool) // see [Vault.ownBlobs]
	ours  func() map[string]bool                // see [Vault.writtenElsewhere]
}

// A gitPlace says whether the vault's folder is in a git work tree, and
// where: the folder's path from its top ("" at the top, else "path/"),
// its git folder, and the commit HEAD is at ("" before the first).
type gitPlace struct {
	inGit                bool
	prefix, gitDir, head string
}

// A fileBlob is a file of the vault's folder with the content a blob id names.
type fileBlob struct{ file, blob string }

func (v *Vault) newGitView() *gitView {
	g := &gitView{where: sync.OnceValue(v.gitPlace)}
	g.tree = sync.OnceValue(func() map[string]string { return v.headTree(g.where()) })
	g.made = sync.OnceValues(func() (map[fileBlob]string, bool) { return v.madeBlobs(g.where()) })
	g.own = sync.OnceValues(func() (map[fileBlob]ownCommit, bool) { return v.ownBlobs(g.where()) })
	g.ours = sync.OnceValue(v.writtenElsewhere)
	return g
}

func (g *gitView) inGit() bool { return g.where().inGit }

// origin says where the bytes data of the vault's file came from.
func (g *gitView) origin(file string, data []byte) origin {
	oid, ok := g.tree()[file]
	if !ok || oid != gitBlobID(data, len(oid)) {
		return origin{kind: uncommitted}
	}
	made, ok := g.made()
	if !ok {
		return origin{kind: untold}
	}
	if c, ok := made[fileBlob{file, oid}]; ok {
		return origin{kind: madeHere, commit: c}
	}
	own, ok := g.own()
	if !ok {
		return origin{kind: unknownAuthor}
	}
	if c, ok := own[fileBlob{file, oid}]; ok {
		if g.ours()[digest(data)] {
			return origin{kind: arrived} // mnemo's own write, in another clone on this machine
		}
		return origin{kind: ownElsewhere, commit: c.commit, email: c.email}
	}
	return origin{kind: arrived}
}

// madeBlobs returns what the commits this clone made gave the memory files
// of the folder at prefix: for each file and blob, the newest such commit.
// ok is false when mnemo cannot tell: HEAD's reflog does not name the
// commit HEAD is at, or git failed.
func (v *Vault) madeBlobs(at gitPlace) (made map[fileBlob]string, ok bool) {
	commits, ok := v.madeCommits(at.head)
	if !ok {
		return nil, false
	}
	made = make(map[fileBlob]string)
	if len(commits) == 0 {
		return made, true
	}
	// Only the commits made here, as given (newest first); a root commit
	// with all it adds; a merge with what differs from every parent.
	out, err := v.gitWith(strings.Join(commits, "\n")+"\n", "log", "--no-walk=unsorted", "--stdin", "-z",
		"--format=commit %H", "--raw", "--root", "--no-abbrev", "-c", "--no-renames", "--no-show-signature", "--no-color", "--", ".")
	if err != nil {
		return nil, false
	}
	rawChanges(out, at.prefix, func(commit string, k fileBlob) {
		if made[k] == "" {
			made[k] = commit
		}
	})
	return made, true
}

// rawChanges calls each, in order, for every memory file of the folder at
// prefix that a commit of out (git log -z --raw, each commit's header
// "commit " and what follows it) gives a blob, with the rest of the
// commit's header.
func rawChanges(out, prefix string, each func(commit string, k fileBlob)) {
	var commit string
	toks := strings.Split(out, "\x00")
	for i := 0; i < len(toks); i++ {
		tok := strings.TrimLeft(toks[i], "\n")
		if c, ok := strings.CutPrefix(tok, "commit "); ok {
			commit = c
			continue
		}
		// ":mode mode old new status", or for a merge "::mode… old… new
		// status"; then the path, from the top of the work tree.
		if !strings.HasPrefix(tok, ":") || i+1 == len(toks) {
			continue
		}
		i++
		file, ok := strings.CutPrefix(toks[i], prefix)
		f := strings.Fields(tok)
		if !ok || len(f) < 2 || commit == "" || !isMemoryFile(file) || strings.Contains(file, "/") {
			continue
		}
		each(commit, fileBlob{file, f[len(f)-2]})
	}
}

// madeCommits returns the commits this clone's reflogs name as made here,
// newest first: HEAD's and its branches' (a commit is made on one of
// them; what moves remote-tracking refs, a fetch or a push, makes none).
// ok is false when HEAD's reflog does not name head, the commit HEAD is at.
func (v *Vault) madeCommits(head string) (commits []string, ok bool) {
	if head == "" {
		return nil, false
	}
	out, err := v.git("log", "-g", "--no-show-signature", "--format=%H %gD %gs", "HEAD", "--branches")
	if err != nil {
		return nil, false
	}
	seen := make(map[string]bool)
	for line := range strings.Lines(out) {
		id, rest, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		sel, subject, _ := strings.Cut(rest, " ")
		if sel == "HEAD@{0}" && id == head {
			ok = true
		}
		if !movedRE.MatchString(subject) && !seen[id] {
			seen[id] = true
			commits = append(commits, id)
		}
	}
	return commits, ok
}

// headTree returns the blob ids of the vault folder's files as git's HEAD
// holds them, by name, and as MERGE_HEAD does during a merge (a teammate's
// memory arrives in a merge that a conflict in MEMORY.md stopped); none
// outside git or before a commit.
func (v *Vault) headTree(at gitPlace) map[string]string {
	blobs := make(map[string]string)
	if at.head == "" {
		return blobs
	}
	if _, err := os.Stat(filepath.Join(at.gitDir, "MERGE_HEAD")); err == nil {
		v.treeBlobs("MERGE_HEAD", blobs)
	}
	v.treeBlobs(at.head, blobs) // HEAD's win
	return blobs
}

// gitPlace says whether the vault's folder is in a git work tree, and
// where: one git process.
func (v *Vault) gitPlace() gitPlace {
	// Before the first commit git prints "HEAD^{commit}" for the last and
	// fails, after the lines before it.
	out, _ := v.git("rev-parse", "--is-inside-work-tree", "--show-prefix", "--absolute-git-dir", "HEAD^{commit}")
	lines := strings.Split(out, "\n")
	if len(lines) < 3 || lines[0] != "true" {
		return gitPlace{}
	}
	at := gitPlace{inGit: true, prefix: lines[1], gitDir: lines[2]}
	if len(lines) > 3 && (len(lines[3]) == 40 || len(lines[3]) == 64) && memory.ValidCommit(lines[3]) {
		at.head = lines[3]
	}
	return at
}

// treeBlobs adds the blob ids of the folder's files in the commit rev.
func (v *Vault) treeBlobs(rev string, blobs map[string]string) {
	out, err := v.git("ls-tree", "-z", rev, "--", ".")
	if err != nil {
		return // no such commit
	}
	for _, rec := range strings.Split(out, "\x00") {
		meta, file, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" && !strings.Contains(file, "/") {
			blobs[file] = f[2]
		}
	}
}

// git runs git in the vault's folder, within 5 seconds, and returns its
// standard output.
func (v *Vault) git(args ...string) (string, error) { return v.gitWith("", args...) }

// gitWith is [Vault.git] with stdin as git's standard input. On failure
// it returns what git printed before, with the error.
func (v *Vault) gitWith(stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", v.Dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("git %s: %w", args[0], err)
	}
	return string(out), nil
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
