package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// The folders Install created (.codex/, .claude/…) are listed in
// [Options.FoldersFile], so that Uninstall removes one it emptied, and no
// folder that was there before.

// missingDirs returns dir and those of its parents that do not exist,
// deepest first: the folders that creating a file in dir creates.
func missingDirs(dir string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

// createdFolders reads the list of folders Install created.
func (o Options) createdFolders() []string {
	if o.FoldersFile == "" {
		return nil
	}
	data, err := os.ReadFile(o.FoldersFile)
	if err != nil {
		return nil
	}
	return slices.DeleteFunc(strings.Split(string(data), "\n"), func(s string) bool { return s == "" }) // a path may hold spaces
}

// writeFolders replaces the list of folders Install created.
func (o Options) writeFolders(dirs []string) error {
	if len(dirs) == 0 {
		if err := os.Remove(o.FoldersFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(o.FoldersFile), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(o.FoldersFile, []byte(strings.Join(dirs, "\n")+"\n"), 0o600)
}

// noteFolders adds dirs, folders Install just created, to the list.
func (o Options) noteFolders(dirs []string) error {
	if o.FoldersFile == "" || len(dirs) == 0 {
		return nil
	}
	all := o.createdFolders()
	for _, d := range dirs {
		if !slices.Contains(all, d) {
			all = append(all, d)
		}
	}
	return o.writeFolders(all)
}

// removeEmptied removes each folder Install created that holds a file
// changes removed and is now empty (and then its parent, when Install
// created that too and it is empty now), and returns a change for each.
// A folder that holds anything stays: os.Remove does not remove a folder
// that is not empty.
func (o Options) removeEmptied(changes []Change) ([]Change, error) {
	created := o.createdFolders()
	var out []Change
	for _, c := range changes {
		if c.Action != "removed" {
			continue
		}
		for d := filepath.Dir(c.Path); slices.Contains(created, d); d = filepath.Dir(d) {
			if fi, err := os.Lstat(d); err != nil || !fi.IsDir() || os.Remove(d) != nil {
				break
			}
			created = slices.DeleteFunc(created, func(s string) bool { return s == d })
			out = append(out, Change{Path: d, Action: "removed"})
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, o.writeFolders(created)
}
