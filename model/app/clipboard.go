package app

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// SystemClipboard returns a function that copies text with the system's clipboard tool, or nil
// when there is none to use (OSC 52 still copies through the terminal).
func SystemClipboard() func(string) error {
	var argv []string
	switch {
	case os.Getenv("WAYLAND_DISPLAY") != "":
		argv = []string{"wl-copy"}
	case os.Getenv("DISPLAY") != "":
		argv = []string{"xclip", "-selection", "clipboard"}
	case runtime.GOOS == "darwin":
		argv = []string{"pbcopy"}
	default:
		return nil
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return nil
	}
	return func(text string) error {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Stdin = strings.NewReader(text)
		// No pipes for its output: xclip stays in the background to serve the selection, and
		// waiting for its output to close would wait for that.
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s: %v", argv[0], err)
		}
		return nil
	}
}
