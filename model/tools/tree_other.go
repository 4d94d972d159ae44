//go:build !linux

package tools

// killDescendants is not available here: the process group kill is all there is.
func killDescendants(int) {}

// killMarked is not available here: there is no portable way to read another process's
// environment.
func killMarked(string, int) int { return 0 }
