package vault

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// A commit this person made in another clone of theirs (a second
// checkout, another machine) and pushed reaches this clone by a fetch, as
// a teammate's does, and the reflog cannot tell the two apart. It is no
// more a review than a commit made here: the agent of that clone wrote the
// file and ran 'git commit' and 'git push' as easily. So a fetched commit
// vouches only when neither its author nor its committer is this person,
// as git names them here (git var GIT_AUTHOR_IDENT and
// GIT_COMMITTER_IDENT: user.email, or $GIT_AUTHOR_EMAIL and its like). A
// person who commits under several addresses, or an agent that commits
// under another's, is beyond what git's records can tell.

// An ownCommit is a commit of this person's that gave a file its bytes,
// and the address by which it names them.
type ownCommit struct{ commit, email string }

// ownBlobs returns, for the memory files of the folder at prefix, the
// blobs whose newest giving commit (in HEAD's history, and MERGE_HEAD's
// during a merge) names this person as its author or committer. ok is
// false when git failed: then no fetched commit vouches. None when git
// names no one.
func (v *Vault) ownBlobs(at gitPlace) (own map[fileBlob]ownCommit, ok bool) {
	own = make(map[fileBlob]ownCommit)
	me := v.identities()
	if at.head == "" || len(me) == 0 {
		return own, true
	}
	revs := []string{at.head}
	if _, err := os.Stat(filepath.Join(at.gitDir, "MERGE_HEAD")); err == nil {
		revs = append(revs, "MERGE_HEAD")
	}
	args := []string{"log", "-z", "--format=commit %H%x01%ae%x01%ce", "--raw", "--root", "--no-abbrev", "-c",
		"--no-renames", "--no-show-signature", "--no-color", "--end-of-options"}
	out, err := v.git(append(append(args, revs...), "--", ".")...)
	if err != nil {
		return nil, false
	}
	seen := make(map[fileBlob]bool)
	rawChanges(out, at.prefix, func(header string, k fileBlob) {
		if seen[k] {
			return // an older commit gave the same bytes: the newest one counts
		}
		seen[k] = true
		f := strings.Split(header, "\x01")
		if len(f) != 3 {
			return
		}
		for _, email := range f[1:] {
			if me[strings.ToLower(email)] {
				own[k] = ownCommit{commit: f[0], email: email}
				return
			}
		}
	})
	return own, true
}

// identities returns the addresses git gives this person's commits in the
// vault's repository, lower-cased: the author's and the committer's.
func (v *Vault) identities() map[string]bool {
	me := make(map[string]bool)
	for _, role := range []string{"GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"} {
		out, err := v.git("var", role)
		if err != nil {
			continue
		}
		// "Name <email> time zone"
		_, rest, ok := strings.Cut(out, "<")
		email, _, ok2 := strings.Cut(rest, ">")
		if ok && ok2 && strings.TrimSpace(email) != "" {
			me[strings.ToLower(strings.TrimSpace(email))] = true
		}
	}
	return me
}

// writtenElsewhere returns the digests that the lists of writes of the
// other state folders on this machine vouch for: what mnemo itself wrote
// in another clone (a second checkout of the person's) and the person
// pushed from there. Those bytes passed mnemo's door on this machine, as
// the list of this clone's own writes says of its own; an agent can write
// no more into another state folder than into this one.
func (v *Vault) writtenElsewhere() map[string]bool {
	out := make(map[string]bool)
	state := v.stateDir()
	if state == "" {
		return out
	}
	paths, _ := filepath.Glob(filepath.Join(filepath.Dir(state), "*", writtenFile))
	for _, p := range paths {
		if filepath.Dir(p) == state {
			continue
		}
		data, err := safefile.Read(p, maxWrittenFile)
		if err != nil {
			continue
		}
		l := newList()
		for line := range strings.Lines(string(data)) {
			l.apply(strings.TrimSuffix(line, "\n"))
		}
		for d := range l.vouched {
			out[d] = true
		}
	}
	return out
}
