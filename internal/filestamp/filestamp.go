package filestamp

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"time"
)

// Window is how long a file must have been left alone before what it held
// is remembered by its stamp: longer than the coarsest clock tick of a
// file system in use (FAT's two seconds; Linux's is a scheduler tick).
const Window = 3 * time.Second

// Of returns the stamp of fi's file: a hash of its modification time and,
// where the system has them, its change time, inode and device; never 0,
// which callers may keep for "not remembered". It is the same in every
// process, for a cache kept in a file.
func Of(fi fs.FileInfo) int64 { return statOf(fi).stamp() }

// Settled reports whether fi's file was last changed at least [Window]
// before now, by its modification time and its change time: what it
// holds may be remembered by its stamp. A time in the future is not
// settled.
func Settled(fi fs.FileInfo, now time.Time) bool { return statOf(fi).settled(now) }

// stat is what a stamp is made of.
type stat struct {
	mod   time.Time
	id    fileID
	hasID bool
}

func statOf(fi fs.FileInfo) stat {
	id, ok := identity(fi)
	return stat{mod: fi.ModTime(), id: id, hasID: ok}
}

func (s stat) stamp() int64 {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], uint64(s.mod.UnixNano()))
	if s.hasID {
		binary.LittleEndian.PutUint64(b[8:], uint64(s.id.changed.UnixNano()))
		binary.LittleEndian.PutUint64(b[16:], s.id.ino)
		binary.LittleEndian.PutUint64(b[24:], s.id.dev)
	}
	h := fnv.New64a()
	h.Write(b[:])
	if v := int64(h.Sum64()); v != 0 {
		return v
	}
	return 1
}

func (s stat) settled(now time.Time) bool {
	last := s.mod
	if s.hasID && s.id.changed.After(last) {
		last = s.id.changed
	}
	return now.Sub(last) >= Window
}

// fileID is what the system keeps of a file beside its modification time.
type fileID struct {
	changed  time.Time // the inode's change time: of the content, or of the metadata
	ino, dev uint64
}
