//go:build !linux

package sessions

// terminalName is not known here.
func terminalName() string { return "" }
