//go:build !linux

package vault

import (
	"errors"
	"io/fs"
)

var errNotPlain = errors.New("not a plain file")

// readPlain has no quick way here; the caller takes the careful one.
func readPlain(path string) ([]byte, fileStat, error) { return nil, fileStat{}, errNotPlain }

func statOf(fi fs.FileInfo) fileStat { return fileStat{size: fi.Size(), mtime: fi.ModTime()} }
