//go:build unix

package tools

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup makes the command the leader of a new process group, so that killGroup
// reaches everything it starts.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree kills every process descended from p (on Linux; one that called setsid included),
// then p's process group. Call it only while p has not been waited for: its pid is p's still.
func killTree(p *os.Process) {
	syscall.Kill(p.Pid, syscall.SIGSTOP) // it must not see its children die and exit first
	killDescendants(p.Pid)               // while their parent still links them to it
	killGroup(p)
}

// killGroup sends SIGKILL to the process group p leads. Should there be no such group, p
// itself is killed, if it still runs.
func killGroup(p *os.Process) {
	if syscall.Kill(-p.Pid, syscall.SIGKILL) != nil {
		p.Kill()
	}
}
