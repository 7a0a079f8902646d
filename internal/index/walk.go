package index

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
	"github.com/mnemo-dev/mnemo/internal/project"
)

// walk lists the memory files of a folder with their size and mtime, in
// no particular order. A symlink counts when it leads to a regular file
// inside the folder. The stat calls, which are most of a no-change sync,
// run on every core.
func walk(source, dir string, now time.Time) (files []seen, problems []error, err error) {
	f, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return nil, nil, err
	}
	names = filterMemoryFiles(names)
	found := make([]seen, len(names))
	errs := make([]error, len(names))
	workers := min(runtime.GOMAXPROCS(0), max(len(names)/256, 1))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(names); i += workers {
				found[i], errs[i] = statFile(source, dir, names[i], now)
			}
		})
	}
	wg.Wait()
	for i := range names {
		switch {
		case errors.Is(errs[i], fs.ErrNotExist):
			// removed while we looked
		case errs[i] != nil:
			problems = append(problems, errs[i])
		default:
			files = append(files, found[i])
		}
	}
	return files, problems, nil
}

// filterMemoryFiles keeps the names of memory files: *.md except MEMORY.md
// and dotfiles (temporary files of atomic writes are dotfiles).
func filterMemoryFiles(names []string) []string {
	out := names[:0]
	for _, n := range names {
		if strings.HasSuffix(n, ".md") && !strings.HasPrefix(n, ".") && !strings.EqualFold(n, "MEMORY.md") {
			out = append(out, n)
		}
	}
	return out
}

func statFile(source, dir, name string, now time.Time) (seen, error) {
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		fi, err = followLink(dir, path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return seen{}, err
	}
	if err != nil {
		return seen{}, fmt.Errorf("%s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return seen{}, fmt.Errorf("%s: not a regular file", path)
	}
	s := seen{source: source, name: strings.TrimSuffix(name, ".md"), path: path,
		size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if filestamp.Settled(fi, now) {
		s.stamp = filestamp.Of(fi)
	}
	return s, nil
}

// followLink stats the target of a symlink, refusing one outside dir.
func followLink(dir, path string) (fs.FileInfo, error) {
	target, err := project.Inside(dir, path)
	if errors.Is(err, project.ErrOutside) {
		return nil, errors.New("symlink points outside the vault: refused")
	} else if err != nil {
		return nil, err
	}
	return os.Stat(target)
}
