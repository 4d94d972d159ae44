package main

import (
	"fmt"
	"os"
	"testing"
)

// testData is the data folder (XDG_DATA_HOME) of this package's tests, removed when they end:
// conversations the tests keep in process go there, never into the user's own folder.
var testData string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "phasechat-main-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "main tests:", err)
		os.Exit(2)
	}
	testData = dir
	os.Setenv("XDG_DATA_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
