package hook

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mnemo-dev/mnemo/internal/envtrust"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// world is what one hook run works with.
type world struct {
	p     *project.Project
	vault string // the project vault, checked ([project.Project.Vault])
	env   project.Env
	state string
	log   *slog.Logger
	now   time.Time
	err   error // the world could not be set up; the hook logs it and prints nothing
	spawn func(root, stateDir string) error

	semantic recall.QueryEmbedder // nil: no recall by meaning
	ignored  []envtrust.Finding   // the repository's variables, which env does not hold
}

// world finds the project from the input's cwd (else $CLAUDE_PROJECT_DIR,
// else the working folder) and its state folder and log.
func (r *Runner) world(ctx context.Context, in Input) *world {
	w := &world{env: r.Env, now: r.Now(), spawn: r.Spawn, semantic: r.Semantic, ignored: r.Ignored}
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
		w.vault, w.err = w.p.Vault() // a vault refused is neither read nor written
	}
	if w.state == "" {
		w.state = filepath.Join(r.Env.MnemoHome(), "state")
	}
	w.log = stateLog(w.state)
	return w
}

// sources are the vaults the index mirrors: the project's, the user's and
// the ones mounted read-only ('mnemo vault add'), named by their mounts.
func (w *world) sources() []index.Source {
	srcs := []index.Source{
		{Name: "project", Dir: w.vault},
		{Name: "user", Dir: w.env.UserVaultDir()},
	}
	ms, err := w.p.Mounts()
	if err != nil {
		w.log.Warn("read the mounted vaults", "err", err)
	}
	return append(srcs, index.MountSources(ms)...)
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
	n, _ := db.Count(ctx)
	if old, err := os.ReadFile(stampPath); err == nil && string(old) == stamp && n > 0 {
		return db, nil
	}
	// Building a large index from nothing takes seconds, past a hook's
	// deadline: the worker builds it in the background, and the hook does
	// without until then.
	if n == 0 && countFiles(srcs) > coldBuildMax {
		db.Close()
		if w.spawn != nil {
			if err := w.spawn(w.p.Root, w.state); err != nil {
				w.log.Warn("start the worker to build the index", "err", err)
			}
		}
		return nil, errIndexBuilding
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
	if st.Changed() {
		w.embedLater(ctx, db)
	}
	return db, nil
}

// embedLater starts the worker when memories lack their vector (of this
// build's model: after an upgrade that changed it, all of them): a hook
// never embeds the vault, but new memories should not wait for the next
// session's end to be found by meaning.
func (w *world) embedLater(ctx context.Context, db *index.DB) {
	if w.semantic == nil || w.spawn == nil {
		return
	}
	if n, err := db.MissingVectors(ctx, w.semantic.ModelID()); err != nil || n == 0 {
		return
	}
	if err := w.spawn(w.p.Root, w.state); err != nil {
		w.log.Warn("start the worker to embed new memories", "err", err)
	}
}

// coldBuildMax is the largest vault a hook indexes from nothing itself.
const coldBuildMax = 1500

// errIndexBuilding says the index is being built in the background.
var errIndexBuilding = errors.New("the index is being built in the background")

// countFiles counts the memory files of the sources, stopping past coldBuildMax.
func countFiles(srcs []index.Source) int {
	n := 0
	for _, s := range srcs {
		entries, _ := os.ReadDir(s.Dir)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".md") {
				n++
			}
		}
		if n > coldBuildMax {
			break
		}
	}
	return n
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
