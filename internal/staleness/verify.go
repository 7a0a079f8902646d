package staleness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// A State is how far a memory can be trusted now.
type State string

const (
	Fresh        State = "fresh"        // everything it names still matches
	Intact       State = "changed"      // an anchored file changed, but every path and identifier the body names is in place
	Suspect      State = "suspect"      // something it names changed or is gone
	Unverifiable State = "unverifiable" // it names nothing that can be checked
)

// A Result is the verdict on one memory.
type Result struct {
	State   State             `json:"state"`
	Reasons []string          `json:"reasons,omitempty"`
	Renames map[string]string `json:"renames,omitempty"` // old path → new path, which --fix can follow
}

// A Cache remembers file hashes by path, size and stamp (see package filestamp),
// and whether identifiers occur in the code at a commit, so that
// verifying what did not change costs stat calls.
type Cache interface {
	Hashes
	Ident(ident, head string) (found, ok bool)
	PutIdent(ident, head string, found bool)
}

// Hashes remembers file hashes by path, size and stamp (see package filestamp).
type Hashes interface {
	Hash(path string, size, stamp int64) (string, bool)
	PutHash(path string, size, stamp int64, hash string)
}

// A Verifier checks memories against a repository.
type Verifier struct {
	Root  string
	InGit bool
	Head  string // git HEAD; "" outside git or before the first commit
	Cache Cache  // nil: no cache
	// Vault is the vault folder, slash-separated and relative to Root: its
	// files are left out of the identifier search, since a memory file
	// names every identifier its body gives.
	Vault string
	// GrepBudget bounds the time spent looking identifiers up with git
	// grep over all the memories one Verifier checks.
	GrepBudget time.Duration

	renames  map[string]map[string]string // anchor commit → old path → new path
	files    []string                     // the repository's files, for moves by content
	grepUsed time.Duration
}

// Verify checks one memory: its anchored files' content, and the paths and
// identifiers its body names.
func (v *Verifier) Verify(ctx context.Context, m *memory.Memory) Result {
	var r Result
	var changed []string // anchored files whose content changed, with the reasons
	checked := false
	if c := m.Anchors.Commit; c != "" && !memory.ValidCommit(c) {
		r.Reasons = append(r.Reasons, fmt.Sprintf("anchors.commit %q is not a commit: not used", c))
	}
	for _, f := range m.Anchors.Files {
		if f.Path == "" || f.SHA256 == "" {
			continue
		}
		checked = true
		if reason := v.checkAnchor(ctx, m, f, &r); reason != "" {
			changed = append(changed, reason)
			r.Reasons = append(r.Reasons, reason)
		}
	}
	named := v.checkRefs(ctx, m, &r, &checked)
	switch {
	case len(changed) > 0 && len(r.Reasons) == len(changed) && named:
		r.State = Intact
		for i, c := range changed {
			r.Reasons[i] = c + ", " + NamesIntact
		}
	case len(r.Reasons) > 0:
		r.State = Suspect
	case checked:
		r.State = Fresh
	default:
		r.State = Unverifiable
	}
	r.Reasons = shown(r.Reasons)
	return r
}

// NamesIntact ends the reason of an anchored file that changed while
// everything the memory's body names stayed in place.
const NamesIntact = "names intact"

// checkRefs checks the paths and identifiers the body names, and reports
// whether it names any and every one was found in place.
func (v *Verifier) checkRefs(ctx context.Context, m *memory.Memory, r *Result, checked *bool) (named bool) {
	refs := FindRefs(m.Body)
	anchored := map[string]bool{}
	for _, f := range m.Anchors.Files {
		anchored[f.Path] = true
	}
	found := 0
	for _, p := range refs.Paths {
		if anchored[p] {
			if _, err := statIn(v.Root, p); err == nil {
				found++
			}
			continue
		}
		if _, err := statIn(v.Root, p); err == nil {
			*checked = true
			found++
		} else if errors.Is(err, fs.ErrNotExist) && v.mentionedBefore(ctx, m, p) {
			*checked = true
			v.missing(ctx, m, p, r)
		} // else outside the repository, or unreadable: the body's words prove nothing
	}
	if v.InGit && v.Head != "" {
		for _, id := range refs.Identifiers {
			ok, known := v.grep(ctx, id)
			if !known {
				continue
			}
			*checked = true
			if ok {
				found++
			} else {
				r.Reasons = append(r.Reasons, fmt.Sprintf("`%s` no longer appears in the code", id))
			}
		}
	}
	n := len(refs.Paths) + len(refs.Identifiers)
	return n > 0 && found == n
}

// mentionedBefore reports whether a path the body names existed when the
// memory was written, so that its absence now means something: without an
// anchor commit, a path that never existed (a typo, a plan) is not checked.
func (v *Verifier) mentionedBefore(ctx context.Context, m *memory.Memory, p string) bool {
	if !v.InGit || !memory.ValidCommit(m.Anchors.Commit) || !memory.ValidPath(p) {
		return false
	}
	return v.git(ctx, "cat-file", "-e", "--end-of-options", m.Anchors.Commit+":"+p) == nil
}

// checkAnchor compares an anchored file with its recorded hash, and
// returns the reason when its content changed; a file gone or unreadable
// goes to r.
func (v *Verifier) checkAnchor(ctx context.Context, m *memory.Memory, f memory.FileAnchor, r *Result) (changed string) {
	file, fi, err := openIn(v.Root, f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		if to, ok := v.movedTo(ctx, m.Anchors.Commit, f); ok {
			r.rename(f.Path, to)
			return ""
		}
		v.missing(ctx, m, f.Path, r)
		return ""
	}
	if err != nil {
		r.Reasons = append(r.Reasons, unreadable(f.Path, err))
		return ""
	}
	defer file.Close()
	var hs Hashes
	if v.Cache != nil {
		hs = v.Cache
	}
	sum, err := hashOpen(hs, f.Path, file, fi)
	if err != nil {
		r.Reasons = append(r.Reasons, unreadable(f.Path, err))
		return ""
	}
	if sum != f.SHA256 {
		return fmt.Sprintf("%s changed%s%s", f.Path, since(written(m)), v.commitsSince(ctx, m.Anchors.Commit, f.Path))
	}
	return ""
}

// missing explains a path that is gone: renamed (and to what) or deleted.
func (v *Verifier) missing(ctx context.Context, m *memory.Memory, p string, r *Result) {
	if to, ok := v.renamedTo(ctx, m.Anchors.Commit, p); ok {
		r.rename(p, to)
		return
	}
	r.Reasons = append(r.Reasons, fmt.Sprintf("%s was deleted", p))
}

// rename records that the path from is now to.
func (r *Result) rename(from, to string) {
	if r.Renames == nil {
		r.Renames = map[string]string{}
	}
	r.Renames[from] = to
	r.Reasons = append(r.Reasons, fmt.Sprintf("%s was renamed to %s", from, to))
}

func written(m *memory.Memory) time.Time {
	if !m.Updated.IsZero() {
		return m.Updated
	}
	return m.Created
}

// commitsSince says how many commits touched path after the anchor commit.
func (v *Verifier) commitsSince(ctx context.Context, commit, path string) string {
	if !v.InGit || !memory.ValidCommit(commit) || v.Head == "" || commit == v.Head {
		return ""
	}
	out, err := v.output(ctx, "rev-list", "--count", "--end-of-options", commit+"..HEAD", "--", path)
	if err != nil {
		return ""
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	switch n {
	case 0:
		return " (not committed yet)"
	case 1:
		return ", 1 commit"
	}
	return fmt.Sprintf(", %d commits", n)
}

// renamedTo finds where git's rename detection says a path went between
// the anchor commit and the working tree.
func (v *Verifier) renamedTo(ctx context.Context, commit, p string) (string, bool) {
	if !v.InGit || !memory.ValidCommit(commit) {
		return "", false
	}
	if v.renames == nil {
		v.renames = map[string]map[string]string{}
	}
	m, ok := v.renames[commit]
	if !ok {
		m = map[string]string{}
		if out, err := v.output(ctx, "diff", "--name-status", "-M", "-z", "--end-of-options", commit, "--"); err == nil {
			fields := bytes.Split(out, []byte{0})
			for i := 0; i+2 < len(fields); {
				status := string(fields[i])
				if strings.HasPrefix(status, "R") {
					m[string(fields[i+1])] = string(fields[i+2])
					i += 3
					continue
				}
				i += 2
			}
		}
		v.renames[commit] = m
	}
	to, ok := m[p]
	return to, ok
}

// grep looks an identifier up as a whole word in the tracked files; ok is
// false when the time budget is spent.
func (v *Verifier) grep(ctx context.Context, id string) (found, ok bool) {
	if v.Cache != nil {
		if found, ok := v.Cache.Ident(id, v.Head); ok {
			return found, true
		}
	}
	budget := v.GrepBudget
	if budget <= 0 {
		budget = 2 * time.Second
	}
	if v.grepUsed >= budget {
		return false, false
	}
	start := time.Now()
	gctx, cancel := context.WithTimeout(ctx, budget-v.grepUsed)
	defer cancel()
	args := []string{"grep", "-q", "-w", "-F", "-e", id, "--"}
	if v.Vault != "" && memory.ValidPath(v.Vault) {
		args = append(args, ".", ":(exclude,top)"+v.Vault)
	}
	err := v.git(gctx, args...)
	v.grepUsed += time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
		found = true
	case errors.As(err, &ee) && ee.ExitCode() == 1:
		found = false
	default:
		return false, false // timed out or failed: unknown
	}
	if v.Cache != nil {
		v.Cache.PutIdent(id, v.Head, found)
	}
	return found, true
}

// git runs git in the repository. What came from a memory file (a commit,
// a path, an identifier) goes after --end-of-options, -e or --, and is
// checked before that too ([memory.ValidCommit], [memory.ValidPath]): a
// memory file arrives through git from anyone, and git has options that
// write files (diff --output).
func (v *Verifier) git(ctx context.Context, args ...string) error {
	return exec.CommandContext(ctx, "git", append([]string{"-C", v.Root}, args...)...).Run()
}

// output is [Verifier.git] returning what git printed.
func (v *Verifier) output(ctx context.Context, args ...string) ([]byte, error) {
	return exec.CommandContext(ctx, "git", append([]string{"-C", v.Root}, args...)...).Output()
}

// VaultPath returns a vault folder as [Verifier.Vault] takes it: relative
// to root and slash-separated, or "" when it is outside root.
func VaultPath(root, dir string) string {
	if r, err := filepath.Rel(root, dir); err == nil && filepath.IsLocal(r) {
		return filepath.ToSlash(r)
	}
	return ""
}
