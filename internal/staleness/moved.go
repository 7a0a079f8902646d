package staleness

import (
	"bytes"
	"context"
	"path"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// maxMoveCandidates bounds the files hashed to find where one anchored
// file went by its content.
const maxMoveCandidates = 2000

// movedTo finds where an anchored file that is gone went: the path git's
// rename detection gives since the anchor commit, else the one file of
// the repository (tracked, or new and not ignored) with the same name
// ending and the content the anchor recorded, a move git cannot see yet
// (not committed, or made with a copy and a delete). A content found in
// more than one file names none.
func (v *Verifier) movedTo(ctx context.Context, commit string, f memory.FileAnchor) (string, bool) {
	if to, ok := v.renamedTo(ctx, commit, f.Path); ok {
		return to, true
	}
	if !v.InGit || f.SHA256 == "" {
		return "", false
	}
	found, n := "", 0
	for _, p := range v.repoFiles(ctx) {
		if p == f.Path || path.Ext(p) != path.Ext(f.Path) || v.Vault != "" && strings.HasPrefix(p, v.Vault+"/") {
			continue
		}
		if n++; n > maxMoveCandidates {
			return "", false
		}
		if sum, err := v.hashOf(p); err == nil && sum == f.SHA256 {
			if found != "" {
				return "", false
			}
			found = p
		}
	}
	return found, found != ""
}

// repoFiles lists the files of the repository, tracked or new and not
// ignored, once per Verifier.
func (v *Verifier) repoFiles(ctx context.Context) []string {
	if v.files != nil {
		return v.files
	}
	v.files = []string{}
	out, err := v.output(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return v.files
	}
	for _, p := range bytes.Split(out, []byte{0}) {
		if s := string(p); memory.ValidPath(s) {
			v.files = append(v.files, s)
		}
	}
	return v.files
}

// hashOf hashes a file of the repository, through the cache.
func (v *Verifier) hashOf(p string) (string, error) {
	fi, err := statIn(v.Root, p)
	if err != nil {
		return "", err
	}
	if v.Cache != nil {
		if sum, ok := v.Cache.Hash(p, fi.Size(), filestamp.Of(fi)); ok {
			return sum, nil
		}
	}
	f, fi, err := openIn(v.Root, p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	var hs Hashes
	if v.Cache != nil {
		hs = v.Cache
	}
	return hashOpen(hs, p, f, fi)
}
