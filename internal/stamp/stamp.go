package stamp

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/mnemo-dev/mnemo/internal/atomicfile"
)

// Due reports whether a task whose stamp is the file at path is due at
// now, once every period: it is when there is no stamp, when the stamp
// holds no time (it is written again), when its time is a period or
// more before now, and when it is after now (a clock set back). Only a
// stamp that cannot be read is an error.
func Due(path string, now time.Time, every time.Duration) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("stamp: %w", err)
	}
	last, err := time.Parse(time.RFC3339Nano, string(bytes.TrimSpace(data)))
	if err != nil {
		return true, nil
	}
	return now.Before(last) || now.Sub(last) >= every, nil
}

// Mark records now as the time the task of the stamp at path last ran
// (RFC 3339, UTC), written whole or not at all.
func Mark(path string, now time.Time) error {
	if err := atomicfile.WriteFile(path, []byte(now.UTC().Format(time.RFC3339Nano)+"\n"), 0o644); err != nil {
		return fmt.Errorf("stamp: %w", err)
	}
	return nil
}
