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
)

// MergeDriver is the name of the git merge driver that merges MEMORY.md by
// regenerating its block, and DriverCommand what it runs (mnemo from PATH).
const (
	MergeDriver   = "mnemo"
	DriverCommand = "mnemo merge-index %O %A %B"
)

// MergeAttribute is the .gitattributes line that hands index to the driver.
func (p *Project) MergeAttribute(index string) (string, error) {
	rel, err := filepath.Rel(p.Root, index)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("project: %s is not inside %s", index, p.Root)
	}
	return filepath.ToSlash(rel) + " merge=" + MergeDriver, nil
}

// HasMergeAttribute reports whether the committed .gitattributes at the
// root hands index to the driver.
func (p *Project) HasMergeAttribute(index string) bool {
	line, err := p.MergeAttribute(index)
	if err != nil {
		return false
	}
	data, _ := os.ReadFile(filepath.Join(p.Root, ".gitattributes"))
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
// not committed) and adds the attribute to .gitattributes (which is), each
// only when missing. It returns what it changed, for the user.
func (p *Project) RegisterMergeDriver(ctx context.Context, index string) ([]string, error) {
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
	if p.HasMergeAttribute(index) {
		return changed, nil
	}
	line, err := p.MergeAttribute(index)
	if err != nil {
		return changed, err
	}
	attrs := filepath.Join(p.Root, ".gitattributes")
	old, err := os.ReadFile(attrs)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return changed, fmt.Errorf("project: %w", err)
	}
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		old = append(old, '\n')
	}
	next := append(old, line+"\n"...)
	if fi, serr := os.Stat(attrs); serr == nil {
		err = atomicfile.WriteFileLike(attrs, next, fi) // keep the file's mode and owner
	} else {
		err = atomicfile.WriteFile(attrs, next, 0o644)
	}
	if err != nil {
		return changed, fmt.Errorf("project: %w", err)
	}
	return append(changed, "added "+line+" to .gitattributes"), nil
}
