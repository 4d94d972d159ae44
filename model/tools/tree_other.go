//go:build !linux

package tools

// killDescendants is not available here: the process group kill is all there is.
func killDescendants(int) {}
