package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile writes data to path atomically: readers see the old content or
// the new, never a torn file, and a crash leaves at most a dotted temp file
// (see [IsTemp]) for the owner of the folder to sweep. It refuses to replace anything but a regular
// file, so a symlink cannot redirect a write out of the vault.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, nil)
}

// WriteFileLike is [WriteFile] for a file that takes another's place (a
// rewrite, or its backup): the new file gets the permission bits of like,
// the [os.FileInfo] of the file it stands for, and its owner and group
// where the process may set them (always as root), before it takes path's
// name. So a private file (mode 0600, say, because it holds credentials)
// stays private, and a file root rewrites for a user stays the user's.
func WriteFileLike(path string, data []byte, like os.FileInfo) error {
	return write(path, data, like.Mode().Perm(), func(f *os.File) error { return chownLike(f, like) })
}

// write is WriteFile with a step that sets the temp file's owner.
func write(path string, data []byte, perm os.FileMode, chown func(*os.File) error) (err error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("write %s: not a regular file (%s)", filepath.Base(path), fi.Mode().Type())
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	renamed := false
	defer func() {
		if err != nil && !renamed { // once renamed, the temp name belongs to no one
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if chown != nil {
		if err = chown(f); err != nil {
			return fmt.Errorf("write %s: %w", base, err)
		}
	}
	// Sync before rename: otherwise a crash can leave a zero-length file
	// under the final name.
	if err = f.Sync(); err != nil {
		return fmt.Errorf("write %s: sync: %w", base, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", base, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("write %s: rename: %w", base, err)
	}
	renamed = true
	if err = SyncDir(dir); err != nil {
		return fmt.Errorf("write %s: sync folder: %w", base, err)
	}
	return nil
}

// SyncDir makes a rename or removal in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// IsTemp reports whether a file name is one of WriteFile's temp files.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}
