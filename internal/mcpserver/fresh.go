package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// DefaultIdleRelease is how long the server keeps the index open after
// its last use. A server sits idle for most of a session; closing the
// index then gives SQLite's caches back, and reopening costs milliseconds
// (no sync, unless the vault changed meanwhile).
const DefaultIdleRelease = 30 * time.Second

// errClosed answers a call that arrives after Close.
var errClosed = errors.New("mcpserver: the server is shutting down")

// sources are the vault folders the index mirrors, named as the hooks and
// the CLI name them, so that all of them share one index.db.
func (s *Server) sources() []index.Source {
	return append([]index.Source{
		{Name: "project", Dir: s.cfg.Project.Dir},
		{Name: "user", Dir: s.cfg.User.Dir},
	}, s.cfg.Mounts...)
}

// index returns the search index, up to date with the vaults, and the
// function to call when done with it. The first call opens and syncs it;
// later calls sync only when the folder watch saw a change, so a recall
// costs no directory walk.
func (s *Server) index(ctx context.Context) (*index.DB, func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, nil, errClosed
	}
	if s.db == nil {
		db, err := index.Open(ctx, filepath.Join(s.cfg.StateDir, index.FileName), s.cfg.Log)
		if err != nil {
			return nil, nil, err
		}
		db.KeepResident() // a recall a call: rows from memory (see index.DB.KeepResident)
		s.db = db
		first := s.watch == nil
		if first {
			s.watch = newWatcher(s.cfg.Log, s.cfg.Project.Dir, s.cfg.User.Dir)
		}
		// The first sync covers everything before it; after an idle
		// release, only what the watch saw needs one.
		if changed := s.watch.Changed(); changed || first {
			if err := s.syncLocked(ctx); err != nil {
				return nil, nil, err
			}
		}
		if first {
			debug.FreeOSMemory() // the first sync may have parsed thousands of files
		}
	} else if s.watch.Changed() {
		if err := s.syncLocked(ctx); err != nil {
			return nil, nil, err
		}
	}
	s.inUse++
	if s.idle != nil {
		s.idle.Stop()
	}
	return s.db, s.release, nil
}

// release ends one use of the index; after the last, the idle timer starts.
func (s *Server) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inUse--
	if s.inUse > 0 || s.closed || s.db == nil {
		return
	}
	if s.idle == nil {
		s.idle = time.AfterFunc(s.cfg.IdleRelease, s.releaseIdle)
	} else {
		s.idle.Reset(s.cfg.IdleRelease)
	}
}

// releaseIdle closes the index when nothing used it for IdleRelease.
func (s *Server) releaseIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inUse > 0 || s.db == nil {
		return
	}
	if err := s.db.Close(); err != nil {
		s.cfg.Log.Warn("index close when idle", "err", err)
	}
	s.db = nil
	debug.FreeOSMemory()
}

// synced brings the index up to date after the server wrote to a vault,
// so that the next recall sees the write.
func (s *Server) synced(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.db == nil || s.closed {
		return // the watch saw the write: the next use syncs
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

// statsDelay is how long recall statistics wait to be written, so that
// the recalls of a burst share one write transaction.
const statsDelay = 2 * time.Second

// recordRecall counts keys as recalled now. The write happens after the
// answer, batched with the other recalls of the next statsDelay: the
// statistics only nudge later rankings, and a write transaction per call
// would hold up the answers. Close writes what is pending.
func (s *Server) recordRecall(keys ...index.Key) {
	if len(keys) == 0 {
		return
	}
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.pending = append(s.pending, keys...)
	s.pendingAt = s.cfg.Now()
	if s.statsTimer == nil {
		s.background.Add(1)
		s.statsTimer = time.AfterFunc(statsDelay, func() {
			defer s.background.Done()
			s.flushStats()
		})
	}
}

// flushStats writes the pending recall statistics.
func (s *Server) flushStats() {
	s.statsMu.Lock()
	keys, now := s.pending, s.pendingAt
	s.pending, s.statsTimer = nil, nil
	s.statsMu.Unlock()
	if len(keys) == 0 {
		return
	}
	db, done, err := s.index(context.Background())
	if err != nil {
		s.cfg.Log.Warn("recall statistics", "err", err)
		return
	}
	defer done()
	if err := db.RecordRecall(context.Background(), now, keys...); err != nil {
		s.cfg.Log.Warn("recall statistics", "err", err)
	}
}

// verdictsTTL is how long the stored verification verdicts are used
// before they are read again: they change when someone runs verify, which
// is rare, and reading them all on every recall would cost more than the
// recall.
const verdictsTTL = 30 * time.Second

// suspects returns what the stored verdicts say is suspect, for ranking.
func (s *Server) suspects(ctx context.Context, db *index.DB) func(index.Key) (string, bool) {
	s.verdictsMu.Lock()
	defer s.verdictsMu.Unlock()
	if s.verdicts == nil || time.Since(s.verdictsAt) > verdictsTTL {
		v, err := db.Suspects(ctx)
		if err != nil {
			s.cfg.Log.Warn("verdicts", "err", err)
			v = map[index.Key]index.Verdict{}
		}
		s.verdicts, s.verdictsAt = v, time.Now()
	}
	return staleness.SuspectFunc(s.verdicts)
}

// forgetVerdicts makes the next recall read the verdicts again.
func (s *Server) forgetVerdicts() {
	s.verdictsMu.Lock()
	s.verdicts = nil
	s.verdictsMu.Unlock()
}
