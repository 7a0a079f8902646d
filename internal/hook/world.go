package hook

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/project"
)

// world is what one hook run works with.
type world struct {
	p     *project.Project
	env   project.Env
	state string
	log   *slog.Logger
	now   time.Time
	err   error // the world could not be set up; the hook logs it and prints nothing
}

// world finds the project from the input's cwd (else $CLAUDE_PROJECT_DIR,
// else the working folder) and its state folder and log.
func (r *Runner) world(ctx context.Context, in Input) *world {
	w := &world{env: r.Env, now: r.Now()}
	dir := in.Cwd
	if dir == "" {
		dir = r.Env.Getenv("CLAUDE_PROJECT_DIR")
	}
	if dir == "" {
		dir, _ = r.Getwd()
	}
	if dir == "" {
		w.err = errNoProject
	} else if w.p, w.err = project.Find(ctx, dir, r.Env); w.err == nil {
		w.state = w.p.StateDir()
	}
	if w.state == "" {
		w.state = filepath.Join(r.Env.MnemoHome(), "state")
	}
	w.log = stateLog(w.state)
	return w
}

// sources are the vaults the index mirrors: the project's and the user's.
func (w *world) sources() []index.Source {
	return []index.Source{
		{Name: "project", Dir: w.p.VaultDir()},
		{Name: "user", Dir: w.env.UserVaultDir()},
	}
}

// openIndex opens the project's index and brings it up to date with the
// vaults when one of their folders changed since the last sync. Every
// write mnemo makes is a rename, which changes the folder; a file edited
// in place is picked up by the next full sync (any mnemo command).
func (w *world) openIndex(ctx context.Context) (*index.DB, error) {
	db, err := index.Open(ctx, filepath.Join(w.state, index.FileName), w.log)
	if err != nil {
		return nil, err
	}
	srcs := w.sources()
	stampPath := filepath.Join(w.state, "synced.json")
	stamp := folderStamp(srcs)
	if old, err := os.ReadFile(stampPath); err == nil && string(old) == stamp {
		if n, err := db.Count(ctx); err == nil && n > 0 {
			return db, nil
		}
	}
	st, err := db.Sync(ctx, srcs...)
	if err != nil {
		db.Close()
		return nil, err
	}
	for _, p := range st.Problems {
		w.log.Warn("index: skipped a memory file", "err", p)
	}
	os.WriteFile(stampPath, []byte(stamp), 0o644)
	return db, nil
}

// folderStamp is the modification times of the vault folders.
func folderStamp(srcs []index.Source) string {
	m := map[string]int64{}
	for _, s := range srcs {
		if fi, err := os.Stat(s.Dir); err == nil {
			m[s.Dir] = fi.ModTime().UnixNano()
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}
