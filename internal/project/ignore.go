package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Ignored reports whether git ignores path (a file under the root), by any
// rule: .gitignore, info/exclude or the user's excludes file. Outside git
// nothing is ignored.
func (p *Project) Ignored(ctx context.Context, path string) (bool, error) {
	if !p.InGit() {
		return false, nil
	}
	err := exec.CommandContext(ctx, "git", "-C", p.Root, "check-ignore", "-q", "--no-index", path).Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		return false, nil
	}
	return false, fmt.Errorf("project: git check-ignore %s: %w", path, err)
}

// Ignore makes git ignore path (a file under the root) in this clone: when
// no rule ignores it yet, a line naming it goes into info/exclude, which is
// itself never committed. It reports whether it added the line.
func (p *Project) Ignore(ctx context.Context, path string) (bool, error) {
	if ok, err := p.Ignored(ctx, path); err != nil || ok || !p.InGit() {
		return false, err
	}
	rel, err := filepath.Rel(p.Root, path)
	if err != nil || !filepath.IsLocal(rel) {
		return false, fmt.Errorf("project: ignore %s: not inside %s", path, p.Root)
	}
	exclude := filepath.Join(p.CommonDir, "info", "exclude")
	old, err := os.ReadFile(exclude)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("project: ignore %s: %w", rel, err)
	}
	line := "/" + filepath.ToSlash(rel) + "\n"
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		line = "\n" + line
	}
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return false, fmt.Errorf("project: ignore %s: %w", rel, err)
	}
	f, err := os.OpenFile(exclude, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return false, fmt.Errorf("project: ignore %s: %w", rel, err)
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return false, fmt.Errorf("project: ignore %s: %w", rel, err)
	}
	return true, f.Close()
}

// Tracked reports whether git tracks path (a file under the root): an
// ignore rule does not untrack a file committed before it.
func (p *Project) Tracked(ctx context.Context, path string) bool {
	if !p.InGit() {
		return false
	}
	return exec.CommandContext(ctx, "git", "-C", p.Root, "ls-files", "--error-unmatch", "--", path).Run() == nil
}
