package queue

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/gofrs/flock"
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
// (so the agent's teardown does not kill it), stdio closed, and the
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
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
// (CLAUDECODE, CLAUDE_CODE_*, CLAUDE_ENV_FILE) and MNEMO_CHILD, which only
// the sessions mnemo itself starts may carry.
func ScrubEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "CLAUDECODE" || strings.HasPrefix(k, "CLAUDE_CODE_") || k == "MNEMO_CHILD" || k == "CLAUDE_ENV_FILE" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
