package queue

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gofrs/flock"

	"github.com/mnemo-dev/mnemo/internal/childenv"
)

// WorkerLockFile is the lock the one worker of a state folder holds.
const WorkerLockFile = "worker.lock"

// WorkerRunning reports whether a worker holds the state folder's worker lock.
func WorkerRunning(stateDir string) bool {
	fl := flock.New(filepath.Join(stateDir, WorkerLockFile))
	ok, err := fl.TryLock()
	if err != nil {
		return false
	}
	if ok {
		fl.Unlock()
		return false
	}
	return true
}

// SpawnWorker starts exe with args as a detached worker: in a new session
// or process group of its own (so the agent's teardown does not kill it), stdio closed, and the
// environment scrubbed of the agent's session variables, which would
// otherwise leak into everything the worker starts. It does not wait.
// It starts nothing when a worker already runs for stateDir.
func SpawnWorker(exe string, args []string, stateDir string, env []string) error {
	if WorkerRunning(stateDir) {
		return nil
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = ScrubEnv(env)
	cmd.Dir = stateDir
	detach(cmd)
	// Nil stdio is /dev/null: the worker never writes into the hook's pipes,
	// so the agent does not wait for it.
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("queue: start worker: %w", err)
	}
	if err := cmd.Process.Release(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("queue: release worker: %w", err)
	}
	return nil
}

// ScrubEnv removes what marks a process as running inside an agent session
// and MNEMO_CHILD, keeping what the claude child needs to reach the model
// ([childenv.Scrub]).
func ScrubEnv(env []string) []string { return childenv.Scrub(env) }
