package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// Bounds of a view, to stay under Claude Code's output limit. Anthropic's
// tool has none; past them the answer ends with a line saying what was left out.
const (
	viewMaxEntries = 200
	viewMaxChars   = maxResultChars
)

// memView lists the vault folder, or shows a file with line numbers.
func (s *Server) memView(in memoryInput) (string, error) {
	mp, err := parseMemPath(in.Path)
	if err != nil {
		return "", err
	}
	if mp.file == "" {
		return s.viewFolder(mp)
	}
	fi, err := os.Lstat(filepath.Join(s.cfg.Project.Dir, mp.file))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", toolErrorf("The path %s does not exist. Please provide a valid path.", mp.path)
	case err == nil && fi.IsDir():
		return "", toolErrorf("mnemo keeps memories in one folder, without subfolders: use /memories/<name>.md, got: %s", mp.path)
	}
	data, err := s.cfg.Project.ReadFile(mp.file)
	if err != nil {
		return "", fileError(mp, err)
	}
	return viewFile(mp.path, shown(string(data)), in.ViewRange), nil
}

// viewFolder lists the vault's visible files, as Anthropic's tool lists a
// directory: a header line, then size and path, the folder first.
func (s *Server) viewFolder(mp memPath) (string, error) {
	dir := s.cfg.Project.Dir
	fi, err := os.Stat(dir)
	if err != nil {
		return "", err
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	root := strings.TrimSuffix(mp.path, "/")
	var b strings.Builder
	fmt.Fprintf(&b, "Here're the files and directories up to 2 levels deep in %s, excluding hidden items and node_modules:\n", mp.path)
	fmt.Fprintf(&b, "%s\t%s", formatSize(fi.Size()), mp.path)
	shown, files := 0, 0
	names := make([]string, 0, len(des))
	for _, de := range des {
		if !strings.HasPrefix(de.Name(), ".") && de.Name() != "node_modules" {
			names = append(names, de.Name())
		}
	}
	slices.Sort(names)
	for _, name := range names {
		fi, err := vaultFileInfo(dir, name)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		files++
		if shown == viewMaxEntries {
			continue
		}
		shown++
		fmt.Fprintf(&b, "\n%s\t%s/%s", formatSize(fi.Size()), root, name)
	}
	if files > shown {
		fmt.Fprintf(&b, "\n(%d more files not shown: find memories with the recall or list tools)", files-shown)
	}
	return b.String(), nil
}

// vaultFileInfo stats a file of the vault folder for a listing. A symlink
// counts as what it points to, as in Anthropic's tool, when that is inside
// the vault; one leading out is not listed (its target's size is news of
// the world outside), nor is a name that would forge a line of the
// listing, nor one that is a secret (a file named for a token).
func vaultFileInfo(dir, name string) (fs.FileInfo, error) {
	if strings.ContainsFunc(name, unicode.IsControl) {
		return nil, errors.New("a control character in the name")
	}
	if redact.TokenKind(strings.TrimSuffix(name, ".md")) != "" {
		return nil, errors.New("a secret as the name")
	}
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return fi, err
	}
	target, err := project.Inside(dir, path)
	if err != nil {
		return nil, err
	}
	return os.Stat(target)
}

// viewFile numbers the lines of a file, as Anthropic's tool does: each line
// right-aligned in six columns, a tab, the line. viewRange picks [first,
// last], 1-based, with last -1 meaning the end.
func viewFile(path, content string, viewRange []int) string {
	lines := strings.Split(content, "\n")
	first, shown := 1, lines
	if len(viewRange) == 2 {
		start := max(1, viewRange[0]) - 1
		end := viewRange[1]
		switch {
		case end == -1 || end > len(lines):
			end = len(lines)
		case end < 0:
			end = max(0, len(lines)+end)
		}
		shown = lines[min(start, len(lines)):max(min(start, len(lines)), end)]
		first = start + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Here's the content of %s with line numbers:\n", path)
	for i, l := range shown {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := fmt.Sprintf("%6d\t%s", first+i, l)
		if b.Len()+len(line) > viewMaxChars {
			fmt.Fprintf(&b, "(lines %d to %d not shown: view them with view_range [%d, -1])", first+i, first+len(shown)-1, first+i)
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// formatSize writes a byte count as Anthropic's tool does: 0B, 512B, 4K, 5.5K, 1.2M.
func formatSize(n int64) string {
	if n <= 0 {
		return "0B"
	}
	units := []string{"B", "K", "M", "G"}
	i := min(int(math.Floor(math.Log(float64(n))/math.Log(1024))), len(units)-1)
	size := float64(n) / math.Pow(1024, float64(i))
	if size == math.Trunc(size) {
		return strconv.FormatFloat(size, 'f', -1, 64) + units[i]
	}
	return strconv.FormatFloat(size, 'f', 1, 64) + units[i]
}
