package mcpserver

import (
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// inotifyMask is every event that can change what a folder's memory files say.
const inotifyMask = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE |
	syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_ATTRIB | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF

// An inotifyWatcher learns of every change to the vault folders, edits in
// place included, from the kernel; asking it costs an atomic load. Its
// reader goroutine ends when Close closes the descriptor.
type inotifyWatcher struct {
	f     *os.File
	dirty atomic.Bool // something changed since the last Changed
	lost  atomic.Bool // the watch ended (a folder removed or moved): every call syncs
	wg    sync.WaitGroup
}

// newWatcher watches dirs with inotify, or falls back to polling when
// inotify is not available (its limits reached, a folder missing).
func newWatcher(log *slog.Logger, dirs ...string) watcher {
	w, err := watchInotify(dirs)
	if err != nil {
		log.Debug("inotify unavailable: polling the vault folders", "err", err)
		return newPollWatcher(dirs...)
	}
	return w
}

func watchInotify(dirs []string) (*inotifyWatcher, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	for _, d := range dirs {
		if _, err := syscall.InotifyAddWatch(fd, d, inotifyMask); err != nil {
			syscall.Close(fd)
			return nil, err
		}
	}
	// A non-blocking descriptor goes to the runtime poller, so Close
	// wakes the reader.
	w := &inotifyWatcher{f: os.NewFile(uintptr(fd), "inotify")}
	w.wg.Go(w.read)
	return w, nil
}

func (w *inotifyWatcher) read() {
	buf := make([]byte, 16*(syscall.SizeofInotifyEvent+syscall.NAME_MAX+1))
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				w.dirty.Store(true) // lost the watch: report changes from now on
				w.lost.Store(true)
			}
			return
		}
		for off := 0; off+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
			if ev.Mask&(syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF) != 0 {
				w.lost.Store(true)
			}
			w.dirty.Store(true)
			off += syscall.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

func (w *inotifyWatcher) Changed() bool { return w.dirty.Swap(false) || w.lost.Load() }

func (w *inotifyWatcher) Close() error {
	err := w.f.Close()
	w.wg.Wait()
	return err
}
