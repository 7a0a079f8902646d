package staleness

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

// Changed returns why a memory's anchored files no longer match what it
// was written against: one reason per file deleted or changed since the
// memory was written, or not checked because it is outside root. It hashes
// each anchored file inside root, or takes its hash from hs (which may be
// nil) while the file's size and stamp are those it was hashed at.
func Changed(root string, m *memory.Memory, hs Hashes) []string {
	var reasons []string
	when := m.Updated
	if when.IsZero() {
		when = m.Created
	}
	for _, f := range m.Anchors.Files {
		if f.SHA256 == "" {
			continue
		}
		sum, err := hashAt(hs, root, f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			reasons = append(reasons, fmt.Sprintf("%s was deleted", f.Path))
		case err != nil:
			reasons = append(reasons, unreadable(f.Path, err))
		case sum != f.SHA256:
			reasons = append(reasons, fmt.Sprintf("%s changed%s", f.Path, since(when)))
		}
	}
	return shown(reasons)
}

// shown redacts reasons in place and returns them: a reason quotes the
// memory file's own text (a path, an identifier, a commit), and a file that
// arrived through git may hold a secret there.
func shown(reasons []string) []string {
	for i, r := range reasons {
		reasons[i] = redact.String(r)
	}
	return reasons
}

func since(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " since " + t.Format(time.DateOnly)
}

// NamesInPlace reports whether every path and identifier m's body names is in
// place, as far as a hook can tell without git: each path names something
// inside root, and each identifier appears in one of the anchored files.
// A body that names nothing is not intact: nothing says the change spared it.
func NamesInPlace(root string, m *memory.Memory) bool {
	refs := FindRefs(m.Body)
	if len(refs.Paths)+len(refs.Identifiers) == 0 {
		return false
	}
	for _, p := range refs.Paths {
		if _, err := statIn(root, p); err != nil {
			return false
		}
	}
	var code []string
	for _, f := range m.Anchors.Files {
		if data, err := readIn(root, f.Path); err == nil {
			code = append(code, string(data))
		}
	}
	for _, id := range refs.Identifiers {
		if !slices.ContainsFunc(code, func(c string) bool { return containsWord(c, id) }) {
			return false
		}
	}
	return true
}

// containsWord reports whether s holds w as a whole word, as git grep -w
// finds it.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !isWordByte(s[start-1])) && (end == len(s) || !isWordByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
