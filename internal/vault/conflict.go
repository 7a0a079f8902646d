package vault

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// Conflicted returns the memory files of the folder dir that git left in
// conflict ([memory.ErrConflict]), by file name, for a hook to say so.
func Conflicted(dir string) []string {
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if !isMemoryFile(de.Name()) {
			continue
		}
		data, err := safefile.Read(filepath.Join(dir, de.Name()), memory.MaxFileSize)
		if err != nil || !bytes.Contains(data, []byte("<<<<<<<")) {
			continue
		}
		if _, err := memory.Parse(de.Name(), data); errors.Is(err, memory.ErrConflict) {
			out = append(out, de.Name())
		}
	}
	return out
}
