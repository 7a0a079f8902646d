package staleness

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Anchor returns anchors for files, given as paths absolute or relative to
// the working folder wd: each file's path relative to root and the first
// [memory.HashPrefixLen] hex digits of its content's SHA-256, with head as
// the commit ("" outside git). A file that does not exist, is not a regular
// file or lies outside root (by its path, or through a symlink) is an error
// naming it.
func Anchor(root, wd, head string, files []string) (memory.Anchors, error) {
	a := memory.Anchors{Commit: head}
	seen := make(map[string]bool)
	for _, f := range files {
		abs := f
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wd, f)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil {
			return memory.Anchors{}, fmt.Errorf("anchor %s: outside the project %s", f, root)
		}
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		sum, err := hashIn(root, rel)
		if errors.Is(err, ErrOutside) {
			return memory.Anchors{}, fmt.Errorf("anchor %s: outside the project %s", f, root)
		}
		if err != nil {
			return memory.Anchors{}, fmt.Errorf("anchor %s: %w", f, pathless(err))
		}
		a.Files = append(a.Files, memory.FileAnchor{Path: rel, SHA256: sum})
	}
	if len(a.Files) == 0 {
		a.Commit = ""
	}
	return a, nil
}
