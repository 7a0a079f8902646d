package staleness

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"time"
)

// A file's hash is remembered (a [Cache], a [Memo]) with the file's size
// and stamp, and used again while both are the same, so that checking a
// file that did not change costs a stat call. The stamp mixes the
// modification time with what the system keeps of the file that no
// program sets back (on Linux and macOS: the change time, the inode and
// the device): a copy that restores the modification time (cp -p,
// rsync -t, touch -r) moves the change time. And a hash is remembered
// only once the file has been left alone for [racyWindow] (as git does
// with its index): a file rewritten at the same size within one tick of
// its clock after it was hashed keeps its times; a file whose times are
// that recent is hashed every time.

// racyWindow is how long a file must have been left alone before its hash
// is remembered: longer than the coarsest clock tick of a file system in
// use (FAT's two seconds; Linux's is a scheduler tick).
const racyWindow = 3 * time.Second

// stampOf returns the stamp of fi's file: a hash of its modification
// time, and where the system has them of its change time, inode and
// device. It is the same in every process, for a [Cache] in index.db.
func stampOf(fi fs.FileInfo) int64 {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], uint64(fi.ModTime().UnixNano()))
	if id, ok := identity(fi); ok {
		binary.LittleEndian.PutUint64(b[8:], uint64(id.changed.UnixNano()))
		binary.LittleEndian.PutUint64(b[16:], id.ino)
		binary.LittleEndian.PutUint64(b[24:], id.dev)
	}
	h := fnv.New64a()
	h.Write(b[:])
	return int64(h.Sum64())
}

// settled reports whether fi's file was last changed at least racyWindow
// before now, by its modification time and its change time: its hash may
// be remembered. A time in the future is not settled.
func settled(fi fs.FileInfo, now time.Time) bool {
	last := fi.ModTime()
	if id, ok := identity(fi); ok && id.changed.After(last) {
		last = id.changed
	}
	return now.Sub(last) >= racyWindow
}

// fileID is what the system keeps of a file beside its modification time.
type fileID struct {
	changed  time.Time // the inode's change time: of the content, or of the metadata
	ino, dev uint64
}
