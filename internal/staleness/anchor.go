package staleness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Anchor returns anchors for files, given as paths absolute or relative to
// the working folder wd: each file's path relative to root and the first
// [memory.HashPrefixLen] hex digits of its content's SHA-256, with head as
// the commit ("" outside git). A file that does not exist, is not a regular
// file or lies outside root is an error naming it.
func Anchor(root, wd, head string, files []string) (memory.Anchors, error) {
	a := memory.Anchors{Commit: head}
	seen := make(map[string]bool)
	for _, f := range files {
		abs := f
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(wd, f)
		}
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return memory.Anchors{}, fmt.Errorf("anchor %s: outside the project %s", f, root)
		}
		rel = filepath.ToSlash(rel)
		if seen[rel] {
			continue
		}
		seen[rel] = true
		sum, err := HashFile(abs)
		if err != nil {
			return memory.Anchors{}, fmt.Errorf("anchor %s: %w", f, err)
		}
		a.Files = append(a.Files, memory.FileAnchor{Path: rel, SHA256: sum})
	}
	if len(a.Files) == 0 {
		a.Commit = ""
	}
	return a, nil
}

// HashFile returns the anchor hash of a regular file's content.
func HashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("not a regular file")
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:memory.HashPrefixLen], nil
}
