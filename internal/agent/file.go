package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// A Change is what installing or uninstalling did to one file.
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"` // created, updated, removed, unchanged
	Backup string `json:"backup,omitempty"`
}

// editFile applies edit to the text of path and writes the result when it
// differs, keeping the old text in path.bak. A file that does not exist is
// edited from empty; a file whose edit leaves it empty (and that remove
// allows) is removed.
func editFile(path string, edit func(old []byte) ([]byte, error)) (Change, error) {
	old, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Change{}, err
	}
	next, err := edit(old)
	if err != nil {
		return Change{}, fmt.Errorf("%s: %w", path, err)
	}
	c := Change{Path: path, Action: "unchanged"}
	switch {
	case bytes.Equal(old, next) || (!existed && next == nil):
		return c, nil
	case next == nil:
		if err := writeBackup(path, old); err != nil {
			return Change{}, err
		}
		if err := os.Remove(path); err != nil {
			return Change{}, err
		}
		c.Action, c.Backup = "removed", path+".bak"
		return c, nil
	}
	if existed {
		if err := writeBackup(path, old); err != nil {
			return Change{}, err
		}
		c.Action, c.Backup = "updated", path+".bak"
	} else {
		c.Action = "created"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return Change{}, err
		}
	}
	return c, atomicfile.WriteFile(path, next, 0o644)
}

func writeBackup(path string, data []byte) error {
	return atomicfile.WriteFile(path+".bak", data, 0o644)
}

// editJSONFile edits a JSON object file keeping key order; an object left
// empty removes the file.
func editJSONFile(path string, edit func(o *object) error) (Change, error) {
	return editFile(path, func(old []byte) ([]byte, error) {
		o, err := parseJSON(old)
		if err != nil {
			return nil, fmt.Errorf("invalid JSON (fix or move the file, then run again): %w", err)
		}
		if err := edit(o); err != nil {
			return nil, err
		}
		if len(o.keys) == 0 {
			return nil, nil
		}
		out := formatJSON(o)
		if bytes.Equal(bytes.TrimSpace(out), bytes.TrimSpace(old)) {
			return old, nil // same content: keep the bytes (and a missing final newline)
		}
		return out, nil
	})
}
