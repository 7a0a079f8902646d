//go:build unix

package queue

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, so that the agent's teardown
// (a signal to its process group) does not reach the worker.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
