package mcpserver

import (
	"os"
	"sync"
	"time"
)

// A watcher tells whether the vault folders changed since it was last asked.
type watcher interface {
	// Changed reports whether anything may have changed since the last
	// call, and resets the report.
	Changed() bool
	Close() error
}

// fullSyncEvery bounds how long a change the folder stamp cannot see (a
// file rewritten in place) goes unnoticed where there is no inotify.
const fullSyncEvery = 10 * time.Second

// A pollWatcher compares the folders' modification times, which every
// create, rename and delete changes, and reports a change at least every
// fullSyncEvery for edits made in place.
type pollWatcher struct {
	dirs []string

	mu    sync.Mutex // guards following
	stamp string
	last  time.Time
}

func newPollWatcher(dirs ...string) *pollWatcher {
	w := &pollWatcher{dirs: dirs}
	w.stamp, w.last = w.read(), time.Now()
	return w
}

func (w *pollWatcher) read() string {
	var b []byte
	for _, d := range w.dirs {
		if fi, err := os.Stat(d); err == nil {
			b = fi.ModTime().AppendFormat(b, time.RFC3339Nano)
		}
		b = append(b, '|')
	}
	return string(b)
}

func (w *pollWatcher) Changed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	stamp := w.read()
	if stamp == w.stamp && time.Since(w.last) < fullSyncEvery {
		return false
	}
	w.stamp, w.last = stamp, time.Now()
	return true
}

func (w *pollWatcher) Close() error { return nil }
