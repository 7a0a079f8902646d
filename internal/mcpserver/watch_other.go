//go:build !linux

package mcpserver

import "log/slog"

// newWatcher polls the vault folders: without inotify, a folder stamp and
// a periodic full sync.
func newWatcher(_ *slog.Logger, dirs ...string) watcher { return newPollWatcher(dirs...) }
