package sessions

import (
	"os"
	"strconv"

	"golang.org/x/term"
)

// terminalName is the terminal this process talks to (its first standard descriptor that is
// one), e.g. /dev/pts/3; empty when there is none.
func terminalName() string {
	for fd := range 3 {
		if term.IsTerminal(fd) {
			if name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd)); err == nil {
				return name
			}
		}
	}
	return ""
}
