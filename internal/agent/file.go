package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// A Change is what installing or uninstalling did to one file.
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"` // created, updated, removed, unchanged
	Backup string `json:"backup,omitempty"`
}

// The mode of a config file mnemo creates. One that can hold credentials
// is the user's alone: Claude Code's app state (~/.claude.json keeps OAuth
// and API keys), Codex's config.toml and every agent's user-level settings,
// whose MCP servers and env carry tokens. A file mnemo rewrites keeps its
// own mode and owner.
const (
	sharedPerm  fs.FileMode = 0o644
	privatePerm fs.FileMode = 0o600
)

// newPerm returns the mode a config file gets when mnemo creates it.
func (o Options) newPerm(path string) fs.FileMode {
	if o.Scope == "user" || path == o.claudeJSON() || path == o.CodexConfig() {
		return privatePerm
	}
	return sharedPerm
}

// editFile applies edit to the text of path and writes the result when it
// differs, keeping the old text in the backups folder (never beside path,
// which may be in the working tree). A file that does not exist is edited
// from empty and created with the mode [Options.newPerm] gives; a file
// whose edit leaves it empty (and that remove allows) is removed. The
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
	if bytes.Equal(old, next) || (!existed && next == nil) {
		return c, nil
	}
	if !existed {
		c.Action = "created"
		dirs := missingDirs(filepath.Dir(path))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return Change{}, err
		}
		if err := o.noteFolders(dirs); err != nil {
			return Change{}, fmt.Errorf("note the folders made for %s: %w", path, err)
		}
		return c, atomicfile.WriteFile(path, next, o.newPerm(path))
	}
	if c.Backup, err = o.backup(path, old, fi); err != nil {
		return Change{}, err
	}
	if next == nil {
		c.Action = "removed"
		return c, os.Remove(path)
	}
	c.Action = "updated"
	return c, atomicfile.WriteFileLike(path, next, fi)
}

// backup keeps old, the text of path, in the backups folder under the time
// and path's name, and returns where; with no folder it keeps nothing.
func (o Options) backup(path string, old []byte, fi fs.FileInfo) (string, error) {
	if o.BackupDir == "" {
		return "", nil
	}
	if err := os.MkdirAll(o.BackupDir, 0o700); err != nil {
		return "", fmt.Errorf("back up %s: %w", path, err)
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	b := filepath.Join(o.BackupDir, now().UTC().Format("20060102T150405.000000000Z")+"-"+o.backupName(path))
	if err := atomicfile.WriteFileLike(b, old, fi); err != nil {
		return "", fmt.Errorf("back up %s: %w", path, err)
	}
	return b, nil
}

// backupName flattens path into one file name: relative to the project or
// the home folder when inside one, with its slashes turned to underscores.
func (o Options) backupName(path string) string {
	name := path
	for _, base := range []string{o.Root, o.Home} {
		if r, err := filepath.Rel(base, path); err == nil && filepath.IsLocal(r) {
			name = r
			break
		}
	}
	return strings.ReplaceAll(filepath.ToSlash(name), "/", "_")
}

// backups returns the texts kept for path, newest first.
func (o Options) backups(path string) [][]byte {
	if o.BackupDir == "" {
		return nil
	}
	ents, err := os.ReadDir(o.BackupDir)
	if err != nil {
		return nil
	}
	suffix := "-" + o.backupName(path)
	var out [][]byte
	for i := len(ents) - 1; i >= 0; i-- { // ReadDir sorts by name, and names start with the time
		if !strings.HasSuffix(ents[i].Name(), suffix) {
			continue
		}
		if data, err := os.ReadFile(filepath.Join(o.BackupDir, ents[i].Name())); err == nil {
			out = append(out, data)
		}
	}
	return out
}

// maxConfigFile bounds an agent's config file read: a repository ships
// .claude/settings.json and .mcp.json, so one may be a link to /dev/zero;
// ~/.claude.json, which keeps Claude Code's history, can grow to megabytes.
const maxConfigFile = 64 << 20

// readFile reads a config file and returns its info, taken from the file
// read; a FIFO, a device or a folder is refused, never waited on.
func readFile(path string) ([]byte, fs.FileInfo, error) {
	return safefile.ReadInfo(path, maxConfigFile)
}

// editJSONFile edits a JSON object file keeping key order; an object left
// empty removes the file. When the result is what a backup of path holds
// once reformatted, and edit would change nothing in that backup (it holds
// none of mnemo's entries), the backup's own bytes are written back: an
// uninstall gives the user their text as they wrote it.
func (o Options) editJSONFile(path string, edit func(*object) error) (Change, error) {
	return o.editFile(path, func(old []byte) ([]byte, error) {
		out, err := editJSON(old, edit)
		if err != nil {
			return nil, err
		}
		if out == nil || bytes.Equal(out, old) {
			return out, nil
		}
		for _, b := range o.backups(path) {
			if mine, err := editJSON(b, edit); err != nil || !bytes.Equal(mine, b) {
				continue
			}
			if obj, err := parseJSON(b); err == nil && bytes.Equal(formatJSON(obj), out) {
				return b, nil
			}
		}
		if want, err := parseJSON(out); err == nil {
			if kept, ok := removeOnly(old, want); ok {
				return kept, nil // only mnemo's entries removed: the person's formatting stays
			}
		}
		return out, nil
	})
}

// editJSON applies edit to the JSON object in text and returns it
// formatted, text itself when only the formatting would change, or nil
// for an object left empty.
func editJSON(text []byte, edit func(*object) error) ([]byte, error) {
	obj, err := parseJSON(text)
	if err != nil {
		return nil, fmt.Errorf("invalid JSON (fix or move the file, then run again): %w", err)
	}
	before := formatJSON(obj)
	if err := edit(obj); err != nil {
		return nil, err
	}
	if len(obj.keys) == 0 {
		return nil, nil
	}
	out := formatJSON(obj)
	if bytes.Equal(out, before) || bytes.Equal(bytes.TrimSpace(out), bytes.TrimSpace(text)) {
		return text, nil // same content: keep the bytes (and the user's formatting)
	}
	return out, nil
}
