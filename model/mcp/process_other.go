//go:build !unix

package mcp

import (
	"os"
	"os/exec"
)

var (
	sigTerm = os.Kill
	sigKill = os.Kill
)

func setProcessGroup(cmd *exec.Cmd) {}

// signalGroup kills p itself here; processes it started may survive.
func signalGroup(p *os.Process, _ os.Signal) { p.Kill() }
