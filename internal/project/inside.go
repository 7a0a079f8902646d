package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrOutside says that a path leads, through a symlink, out of the folder
// it must stay in.
var ErrOutside = errors.New("leads outside")

// Inside returns path with every symlink resolved, or an error wrapping
// [ErrOutside] when that leads out of root (itself resolved), and one
// saying "broken symlink" when it leads nowhere. It is the one check of
// "this path stays where it belongs": the project vault in the repository
// ([Project.Vault]), a memory file in its vault (packages vault and index).
func Inside(root, path string) (string, error) {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("broken symlink: %w", err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	if r, err := filepath.Rel(real, target); err != nil || !filepath.IsLocal(r) {
		return "", fmt.Errorf("%w %s (to %s)", ErrOutside, real, target)
	}
	return target, nil
}

// A VaultError says why the project vault is refused: .memory is a
// symlink that leads out of the repository (a repository can commit one,
// to make mnemo read and write another folder of the machine), or nowhere.
type VaultError struct {
	Dir    string // the .memory folder as found
	Target string // what the symlink says, as written
	Err    error
}

func (e *VaultError) Error() string {
	return fmt.Sprintf("vault %s is a symlink to %s, which %s: refused, mnemo reads and writes no folder outside the repository",
		e.Dir, e.Target, e.why())
}

func (e *VaultError) Unwrap() error { return e.Err }

func (e *VaultError) why() string {
	if errors.Is(e.Err, ErrOutside) {
		return "is outside the repository"
	}
	return "does not exist"
}

// Hint says what to do instead of the refused symlink.
func (e *VaultError) Hint() string {
	return "replace the symlink with the folder itself, use 'mnemo init --private' for a vault outside git, " +
		"or mount the other folder read-only with 'mnemo vault add DIR'"
}

// Vault returns the project vault's folder ([Project.VaultDir]) for
// reading and writing. Every caller that reads or writes the project's
// memories asks here: the commands, the hooks, the MCP server and the
// worker. A .memory that is a symlink leading out of the repository, or
// nowhere, is refused with a [*VaultError]; one leading to a folder inside
// the repository is followed.
func (p *Project) Vault() (string, error) {
	shared := p.SharedVaultDir()
	fi, err := os.Lstat(shared)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return p.VaultDir(), nil
	}
	if _, err := Inside(p.Root, shared); err != nil {
		target, _ := os.Readlink(shared)
		return "", &VaultError{Dir: shared, Target: target, Err: err}
	}
	return p.VaultDir(), nil
}
