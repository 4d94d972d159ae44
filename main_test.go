package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// testData is the data folder (XDG_DATA_HOME) of this package's tests, removed when they end:
// conversations the tests keep in process go there, never into the user's own folder. The cache
// folder (XDG_CACHE_HOME: the MCP servers' logs) lives inside it too.
var testData string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phasechat-main-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "main tests:", err)
		os.Exit(2)
	}
	testData = dir
	if os.Getenv("GOCACHE") == "" {
		// The go command's own cache stays where it was: it too defaults to XDG_CACHE_HOME.
		if cache, err := os.UserCacheDir(); err == nil {
			os.Setenv("GOCACHE", filepath.Join(cache, "go-build"))
		}
	}
	os.Setenv("XDG_DATA_HOME", dir)
	os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache"))
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
