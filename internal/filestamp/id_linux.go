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
	return fileID{changed: time.Unix(st.Ctim.Unix()), ino: st.Ino, dev: st.Dev}, true
}
