//go:build !unix

package tui

// jobControl: no job control here.
func jobControl() bool { return false }
