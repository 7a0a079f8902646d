package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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

// The mode of a config file mnemo creates. One that can hold credentials
// is the user's alone: Claude Code's app state (~/.claude.json keeps OAuth
// and API keys) and every agent's user-level settings, whose MCP servers and
// env carry tokens. A file mnemo rewrites keeps its own mode and owner.
const (
	sharedPerm  fs.FileMode = 0o644
	privatePerm fs.FileMode = 0o600
)

// newPerm returns the mode a config file gets when mnemo creates it.
func (o Options) newPerm(path string) fs.FileMode {
	if o.Scope == "user" || path == o.claudeJSON() {
		return privatePerm
	}
	return sharedPerm
}

// editFile applies edit to the text of path and writes the result when it
// differs, keeping the old text in path.bak. A file that does not exist is
// edited from empty and created with the mode [Options.newPerm] gives; a
// file whose edit leaves it empty (and that remove allows) is removed. The
// rewritten file and its backup keep the mode and owner of the file as it
// was.
func (o Options) editFile(path string, edit func(old []byte) ([]byte, error)) (Change, error) {
	old, fi, err := readFile(path)
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
		if err := atomicfile.WriteFileLike(path+".bak", old, fi); err != nil {
			return Change{}, err
		}
		if err := os.Remove(path); err != nil {
			return Change{}, err
		}
		c.Action, c.Backup = "removed", path+".bak"
		return c, nil
	}
	if !existed {
		c.Action = "created"
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return Change{}, err
		}
		return c, atomicfile.WriteFile(path, next, o.newPerm(path))
	}
	if err := atomicfile.WriteFileLike(path+".bak", old, fi); err != nil {
		return Change{}, err
	}
	c.Action, c.Backup = "updated", path+".bak"
	return c, atomicfile.WriteFileLike(path, next, fi)
}

// readFile reads a file and returns its info, taken from the file read.
func readFile(path string) ([]byte, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	return data, fi, err
}

// editJSONFile edits a JSON object file keeping key order; an object left
// empty removes the file.
func (o Options) editJSONFile(path string, edit func(*object) error) (Change, error) {
	return o.editFile(path, func(old []byte) ([]byte, error) {
		obj, err := parseJSON(old)
		if err != nil {
			return nil, fmt.Errorf("invalid JSON (fix or move the file, then run again): %w", err)
		}
		if err := edit(obj); err != nil {
			return nil, err
		}
		if len(obj.keys) == 0 {
			return nil, nil
		}
		out := formatJSON(obj)
		if bytes.Equal(bytes.TrimSpace(out), bytes.TrimSpace(old)) {
			return old, nil // same content: keep the bytes (and a missing final newline)
		}
		return out, nil
	})
}
