package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// A Mount is another vault the project reads, never writes: a folder of
// memory files, such as a checkout of an organisation's conventions.
type Mount struct {
	Name string `json:"name"` // its label in recall and injection
	Dir  string `json:"dir"`  // absolute
}

// MountsFile holds a project's mounts in its state folder: the paths are
// this machine's, so they are never committed.
const MountsFile = "vaults.json"

var mountNameRE = lazyregexp.New(`^[a-z0-9][a-z0-9-]{0,31}$`)

// ValidMountName reports whether s can name a mount: a short slug, and
// neither "project" nor "user", the names of the project's own vaults.
func ValidMountName(s string) bool {
	return mountNameRE.MatchString(s) && s != "project" && s != "user"
}

// Mounts returns the vaults mounted in the project, in the order added.
func (p *Project) Mounts() ([]Mount, error) {
	data, err := os.ReadFile(filepath.Join(p.StateDir(), MountsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("project: mounts: %w", err)
	}
	var ms []Mount
	if err := json.Unmarshal(data, &ms); err != nil {
		return nil, fmt.Errorf("project: %s: %w", filepath.Join(p.StateDir(), MountsFile), err)
	}
	out := ms[:0]
	for _, m := range ms {
		if ValidMountName(m.Name) && filepath.IsAbs(m.Dir) {
			out = append(out, m)
		}
	}
	return out, nil
}

// SetMounts records the project's mounts.
func (p *Project) SetMounts(ms []Mount) error {
	if ms == nil {
		ms = []Mount{}
	}
	data, err := json.MarshalIndent(ms, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(p.StateDir(), 0o755); err != nil {
		return fmt.Errorf("project: mounts: %w", err)
	}
	if err := atomicfile.WriteFile(filepath.Join(p.StateDir(), MountsFile), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("project: mounts: %w", err)
	}
	return nil
}
