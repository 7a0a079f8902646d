package staleness

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Changed returns why a memory's anchored files no longer match what it
// was written against: one reason per file deleted or changed since the
// memory was written, or not checked because it is outside root. It hashes
// each anchored file inside root.
func Changed(root string, m *memory.Memory) []string {
	var reasons []string
	when := m.Updated
	if when.IsZero() {
		when = m.Created
	}
	for _, f := range m.Anchors.Files {
		if f.SHA256 == "" {
			continue
		}
		sum, err := hashIn(root, f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			reasons = append(reasons, fmt.Sprintf("%s was deleted", f.Path))
		case err != nil:
			reasons = append(reasons, unreadable(f.Path, err))
		case sum != f.SHA256:
			reasons = append(reasons, fmt.Sprintf("%s changed%s", f.Path, since(when)))
		}
	}
	return reasons
}

func since(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return " since " + t.Format(time.DateOnly)
}
