//go:build unix

package reaper

import (
	"os/exec"
	"os/signal"
	"syscall"
)

// ownGroup starts cmd in a process group of its own: the terminal's signals to ours (Ctrl+C,
// Ctrl+Z, a hangup) never reach it.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stopGroup stops every process of group pgid, so none forks while the group is killed.
func stopGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGSTOP) }

// killGroup kills every process of group pgid.
func killGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }

// ignoreTerminalSignals makes the supervisor deaf to what a terminal sends (an interrupt, a
// hangup, a stop): only the end of its pipe ends it.
func ignoreTerminalSignals() {
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU)
}
