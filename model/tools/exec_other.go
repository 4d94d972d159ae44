//go:build !unix

package tools

import (
	"os"
	"os/exec"
)

// setProcessGroup does nothing here: process groups are a Unix notion.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills only p itself here; processes it started may survive.
func killGroup(p *os.Process) {
	p.Kill()
}

// killTree is killGroup here.
func killTree(p *os.Process) { killGroup(p) }
