//go:build !linux

package reaper

import "os"

// executable is this program's file.
func executable() (string, error) { return os.Executable() }

// KillMarked does nothing here: there is no portable way to read another process's
// environment.
func KillMarked(string, int) int { return 0 }

// startTime is not known here (and no runs record is kept).
func startTime(int) uint64 { return 0 }

// groupMembers is not known here.
func groupMembers(int) []int { return nil }
