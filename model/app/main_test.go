package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain points the data and cache folders (kept conversations, MCP logs) into a folder of
// its own, removed when the tests end: never the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phasechat-app-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "app tests:", err)
		os.Exit(2)
	}
	os.Setenv("XDG_DATA_HOME", dir)
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
