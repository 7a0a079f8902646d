package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// MergeDriver is the name of the git merge driver that merges MEMORY.md by
// regenerating its block, and DriverCommand what it runs (mnemo from PATH).
const (
	MergeDriver   = "mnemo"
	DriverCommand = "mnemo merge-index %O %A %B"
)

// attribute is the .gitattributes line that merges path with driver.
func (p *Project) attribute(path, driver string) (string, error) {
	rel, err := filepath.Rel(p.Root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("project: %s is not inside %s", path, p.Root)
	}
	return filepath.ToSlash(rel) + " merge=" + driver, nil
}

// maxAttributes bounds a read of .gitattributes: it is committed, so it may
// be a link to /dev/zero.
const maxAttributes = 4 << 20

// HasMergeAttribute reports whether the committed .gitattributes at the
// root hands index to mnemo's driver.
func (p *Project) HasMergeAttribute(index string) bool {
	line, err := p.attribute(index, MergeDriver)
	return err == nil && p.hasAttribute(line)
}

func (p *Project) hasAttribute(line string) bool {
	data, _ := safefile.Read(filepath.Join(p.Root, ".gitattributes"), maxAttributes)
	for l := range strings.Lines(string(data)) {
		if strings.Join(strings.Fields(l), " ") == line {
			return true
		}
	}
	return false
}

// DriverSet reports whether this clone's git config defines the driver.
func (p *Project) DriverSet(ctx context.Context) bool {
	if !p.InGit() {
		return false
	}
	out, err := exec.CommandContext(ctx, "git", "-C", p.Root, "config", "--get", "merge."+MergeDriver+".driver").Output()
	return err == nil && len(bytes.TrimSpace(out)) > 0
}

// RegisterMergeDriver sets the driver in this clone's .git/config (which is
// not committed) and adds the attributes to .gitattributes (which is): index
// merged by the driver, each of union by git's union driver (files of one
// independent line per record). Each only when missing. It returns what it
// changed, for the user.
func (p *Project) RegisterMergeDriver(ctx context.Context, index string, union ...string) ([]string, error) {
	if !p.InGit() {
		return nil, nil
	}
	var changed []string
	if !p.DriverSet(ctx) {
		for _, kv := range [][2]string{
			{"merge." + MergeDriver + ".name", "mnemo: merge MEMORY.md by regenerating its block"},
			{"merge." + MergeDriver + ".driver", DriverCommand},
		} {
			if out, err := exec.CommandContext(ctx, "git", "-C", p.Root, "config", kv[0], kv[1]).CombinedOutput(); err != nil {
				return changed, fmt.Errorf("project: git config %s: %w: %s", kv[0], err, bytes.TrimSpace(out))
			}
		}
		changed = append(changed, "set the merge driver "+MergeDriver+" in .git/config")
	}
	var add []string
	for i, path := range append([]string{index}, union...) {
		driver := MergeDriver
		if i > 0 {
			driver = "union"
		}
		line, err := p.attribute(path, driver)
		if err != nil {
			return changed, err
		}
		if !p.hasAttribute(line) {
			add = append(add, line)
		}
	}
	if len(add) == 0 {
		return changed, nil
	}
	attrs := filepath.Join(p.Root, ".gitattributes")
	old, err := safefile.Read(attrs, maxAttributes)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return changed, fmt.Errorf("project: %w", err)
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	next := append(old, strings.Join(add, "\n")+"\n"...)
	if fi, serr := os.Stat(attrs); serr == nil {
		err = atomicfile.WriteFileLike(attrs, next, fi) // keep the file's mode and owner
	} else {
		err = atomicfile.WriteFile(attrs, next, 0o644)
	}
	if err != nil {
		return changed, fmt.Errorf("project: %w", err)
	}
	for _, line := range add {
		changed = append(changed, "added "+line+" to .gitattributes")
	}
	return changed, nil
}
