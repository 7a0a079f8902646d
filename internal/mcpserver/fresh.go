package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"runtime/debug"

	"github.com/mnemo-dev/mnemo/internal/index"
)

// errClosed answers a call that arrives after Close.
var errClosed = errors.New("mcpserver: the server is shutting down")

// sources are the vault folders the index mirrors, named as the hooks and
// the CLI name them, so that all of them share one index.db.
func (s *Server) sources() []index.Source {
	return []index.Source{
		{Name: "project", Dir: s.cfg.Project.Dir},
		{Name: "user", Dir: s.cfg.User.Dir},
	}
}

// index returns the search index, up to date with the vaults. It is opened
// on the first call, which syncs it; later calls sync only when the folder
// watch saw a change, so a recall costs no directory walk.
func (s *Server) index(ctx context.Context) (*index.DB, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if s.db == nil {
		db, err := index.Open(ctx, filepath.Join(s.cfg.StateDir, index.FileName), s.cfg.Log)
		if err != nil {
			return nil, err
		}
		s.db = db
		s.watch = newWatcher(s.cfg.Log, s.cfg.Project.Dir, s.cfg.User.Dir)
		s.watch.Changed() // the sync below covers everything before it
		if err := s.syncLocked(ctx); err != nil {
			return nil, err
		}
		// The first sync may have parsed thousands of files; give the
		// memory back, since an idle server should stay small.
		debug.FreeOSMemory()
		return s.db, nil
	}
	if s.watch.Changed() {
		if err := s.syncLocked(ctx); err != nil {
			return nil, err
		}
	}
	return s.db, nil
}

// synced brings the index up to date after the server wrote to a vault,
// so that the next recall sees the write.
func (s *Server) synced(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil || s.closed {
		return // opened, and synced, on first use
	}
	s.watch.Changed()
	if err := s.syncLocked(ctx); err != nil {
		s.cfg.Log.Warn("index sync after a write", "err", err)
	}
}

// syncLocked syncs the index; s.mu must be held.
func (s *Server) syncLocked(ctx context.Context) error {
	st, err := s.db.Sync(ctx, s.sources()...)
	if err != nil {
		return err
	}
	for _, p := range st.Problems {
		s.cfg.Log.Warn("index: skipped a memory file", "err", p)
	}
	return nil
}

// recordRecall counts keys as recalled now, in the background: the
// statistics only nudge later rankings, and a write transaction should not
// hold up the answer. Close waits for it.
func (s *Server) recordRecall(db *index.DB, keys ...index.Key) {
	if len(keys) == 0 {
		return
	}
	now := s.cfg.Now()
	s.background.Go(func() {
		if err := db.RecordRecall(context.Background(), now, keys...); err != nil {
			s.cfg.Log.Warn("recall statistics", "err", err)
		}
	})
}
