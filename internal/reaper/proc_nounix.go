//go:build !unix

package reaper

import "os/exec"

// ownGroup does nothing here: process groups are a Unix notion.
func ownGroup(*exec.Cmd) {}

func stopGroup(int) {}
func killGroup(int) {}

func ignoreTerminalSignals() {}
