package filestamp

import (
	"io/fs"
	"syscall"
	"time"
)

func identity(fi fs.FileInfo) (fileID, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return idOf(st), true
}

func idOf(st *syscall.Stat_t) fileID {
	return fileID{changed: time.Unix(st.Ctim.Unix()), ino: st.Ino, dev: st.Dev}
}

// OfSys is [Of] and [Settled] of the file whose stat is st, for a reader
// that calls fstat itself.
func OfSys(st *syscall.Stat_t, now time.Time) (stamp int64, settled bool) {
	s := stat{mod: time.Unix(st.Mtim.Unix()), id: idOf(st), hasID: true}
	return s.stamp(), s.settled(now)
}
