package project

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// VaultFolder is the project vault's folder name at the repository root.
const VaultFolder = ".memory"

// Env is what a project is resolved against: the environment and the home folder.
type Env struct {
	Getenv func(string) string
	Home   string // the user's home folder
}

// MnemoHome returns MNEMO_HOME, or ~/.mnemo.
func (e Env) MnemoHome() string {
	if h := e.Getenv("MNEMO_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".mnemo")
}

// ClaudeHome returns CLAUDE_CONFIG_DIR, or ~/.claude.
func (e Env) ClaudeHome() string {
	if h := e.Getenv("CLAUDE_CONFIG_DIR"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".claude")
}

// CodexHome returns CODEX_HOME, or ~/.codex.
func (e Env) CodexHome() string {
	if h := e.Getenv("CODEX_HOME"); h != "" {
		return h
	}
	return filepath.Join(e.Home, ".codex")
}

// GeminiHome returns ~/.gemini, where Gemini CLI keeps its sessions.
func (e Env) GeminiHome() string { return filepath.Join(e.Home, ".gemini") }

// UserVaultDir returns the user vault: facts about the user across projects.
func (e Env) UserVaultDir() string { return filepath.Join(e.MnemoHome(), "user") }

// UserStateDir returns the state folder of the user vault.
func (e Env) UserStateDir() string { return filepath.Join(e.MnemoHome(), "state", "user") }

// A Project is a repository (or, outside git, a folder) with memories.
type Project struct {
	Root      string // the git work tree root, or the folder itself outside git
	CommonDir string // git's common directory, shared by worktrees; empty outside git
	env       Env
}

// Find returns the project around dir: the git work tree that contains it, or
// dir itself when it is not in a git repository. It reads .git itself
// rather than running git, because hooks call it on every prompt.
func Find(ctx context.Context, dir string, env Env) (*Project, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("project: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("project: %s is not a folder", abs)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	p := &Project{Root: abs, env: env}
	ceilings := map[string]bool{}
	if env.Getenv != nil {
		for _, c := range filepath.SplitList(env.Getenv("GIT_CEILING_DIRECTORIES")) {
			ceilings[filepath.Clean(c)] = true
		}
	}
	for d := abs; ; d = filepath.Dir(d) {
		if common, ok := gitCommonDir(filepath.Join(d, ".git")); ok {
			p.Root, p.CommonDir = d, common
			return p, nil
		}
		if up := filepath.Dir(d); up == d || ceilings[up] {
			return p, nil // not in a repository: the folder is the project
		}
	}
}

// gitCommonDir returns the repository's common directory for a .git entry:
// the folder itself, or for a worktree (a file "gitdir: <path>") the
// folder its commondir file names.
func gitCommonDir(dotGit string) (string, bool) {
	fi, err := os.Stat(dotGit)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return dotGit, true
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return "", false
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return "", false
	}
	gitdir = strings.TrimSpace(gitdir)
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(filepath.Dir(dotGit), gitdir)
	}
	common := gitdir
	if c, err := os.ReadFile(filepath.Join(gitdir, "commondir")); err == nil {
		common = strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitdir, common)
		}
	}
	return filepath.Clean(common), true
}

// InGit reports whether the project is a git repository.
func (p *Project) InGit() bool { return p.CommonDir != "" }

// SharedVaultDir returns .memory/ at the root: the vault committed with the code.
func (p *Project) SharedVaultDir() string { return filepath.Join(p.Root, VaultFolder) }

// PrivateVaultDir returns Claude Code's machine-local auto-memory folder for
// the project, ~/.claude/projects/<slug>/memory.
func (p *Project) PrivateVaultDir() string {
	return filepath.Join(p.env.ClaudeHome(), "projects", ClaudeSlug(p.Root), "memory")
}

// VaultDir returns the project vault: .memory/ when it exists, else Claude
// Code's private folder when that exists, else .memory/ (where init creates it).
func (p *Project) VaultDir() string {
	shared := p.SharedVaultDir()
	if isDir(shared) {
		return shared
	}
	if private := p.PrivateVaultDir(); isDir(private) {
		return private
	}
	return shared
}

// StateDir returns the folder of derived state (index, queue, inbox, log)
// for the project: ~/.mnemo/state/<key>, where the key comes from git's
// common directory so that worktrees of one repository share it.
func (p *Project) StateDir() string {
	id, base := p.CommonDir, filepath.Base(p.Root)
	if id == "" {
		id = p.Root
	} else if base = filepath.Base(id); base == ".git" {
		base = filepath.Base(filepath.Dir(id)) // the main work tree, for every worktree
	}
	sum := sha256.Sum256([]byte(id))
	key := sanitize(base) + "-" + hex.EncodeToString(sum[:6])
	return filepath.Join(p.env.MnemoHome(), "state", key)
}

// Head returns git HEAD's commit, or "" outside git or before the first commit.
func (p *Project) Head(ctx context.Context) string {
	if !p.InGit() {
		return ""
	}
	out, err := exec.CommandContext(ctx, "git", "-C", p.Root, "rev-parse", "--verify", "-q", "HEAD").Output()
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}

// Author returns the person git names in this repository (user.name), or
// "" outside git or when it names no one.
func (p *Project) Author(ctx context.Context) string {
	if !p.InGit() {
		return ""
	}
	out, err := exec.CommandContext(ctx, "git", "-C", p.Root, "config", "--get", "user.name").Output()
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(out))
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			b[i] = '-'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
