package staleness

import (
	"strings"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Fix returns a copy of m that follows the renames r found: each old path
// is replaced by its new one in the anchors and the body, and every
// anchored file that exists inside root is hashed again at head
// (re-anchored: the person confirms the memory still holds); the anchors
// that cannot be (gone, outside root) and a commit that is not one are
// dropped. It reports whether anything changed.
func Fix(root, head string, m *memory.Memory, r Result) (*memory.Memory, bool) {
	c := m.Clone()
	for from, to := range r.Renames {
		follow(c, from, to)
	}
	var files []memory.FileAnchor
	for _, f := range c.Anchors.Files {
		sum, err := hashIn(root, f.Path)
		if err != nil {
			continue // gone for good, or outside the repository: the anchor goes
		}
		files = append(files, memory.FileAnchor{Path: f.Path, SHA256: sum})
	}
	c.Anchors.Files = files
	switch {
	case len(files) > 0 && head != "":
		c.Anchors.Commit = head
	case !memory.ValidCommit(c.Anchors.Commit):
		c.Anchors.Commit = "" // not a commit: no reader would use it
	}
	changed := c.Body != m.Body || !anchorsEqual(c.Anchors, m.Anchors)
	return c, changed
}

// Follow returns a copy of m that follows one rename: the path from is
// replaced by to in its anchors and its body. The anchors keep their
// hashes: whether the file still says what the memory claims is for the
// person to confirm ([Fix] re-anchors).
func Follow(m *memory.Memory, from, to string) *memory.Memory {
	c := m.Clone()
	follow(c, from, to)
	return c
}

func follow(m *memory.Memory, from, to string) {
	m.Body = replacePath(m.Body, from, to)
	for i := range m.Anchors.Files {
		if m.Anchors.Files[i].Path == from {
			m.Anchors.Files[i].Path = to
		}
	}
}

// replacePath replaces a path where it stands as a whole path, not inside
// a longer one.
func replacePath(s, from, to string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, from)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(from)
		before, after := byte(' '), byte(' ')
		if i > 0 {
			before = s[i-1]
		}
		if end < len(s) {
			after = s[end]
		}
		b.WriteString(s[:i])
		if isPathByte(before) || isPathByte(after) {
			b.WriteString(from)
		} else {
			b.WriteString(to)
		}
		s = s[end:]
	}
}

func isPathByte(c byte) bool {
	return c == '/' || c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func anchorsEqual(a, b memory.Anchors) bool {
	if a.Commit != b.Commit || len(a.Files) != len(b.Files) {
		return false
	}
	for i := range a.Files {
		if a.Files[i] != b.Files[i] {
			return false
		}
	}
	return true
}
