//go:build !linux

package vault

import (
	"errors"
	"io/fs"

	"github.com/mnemo-dev/mnemo/internal/filestamp"
)

var errNotPlain = errors.New("not a plain file")

// readPlain has no quick way here; the caller takes the careful one.
func readPlain(path string) ([]byte, fileStat, error) { return nil, fileStat{}, errNotPlain }

func statOf(fi fs.FileInfo) fileStat { return fileStat{size: fi.Size(), stamp: filestamp.Of(fi)} }
