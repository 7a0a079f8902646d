//go:build windows

package queue

import (
	"os/exec"
	"syscall"
)

// detachedProcess and newProcessGroup are the Windows process-creation
// flags DETACHED_PROCESS and CREATE_NEW_PROCESS_GROUP: no console, and no
// Ctrl-C from the agent's console group.
const (
	detachedProcess = 0x00000008
	newProcessGroup = 0x00000200
)

// detach starts cmd without the agent's console and outside its process
// group, so that the agent's teardown does not reach the worker.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: detachedProcess | newProcessGroup}
}
