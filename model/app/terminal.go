package app

import "os"

// pipedNotice says what the full-screen chat did with text piped to it.
const pipedNotice = "Standard input is not a terminal: the piped text was not read (phasechat -p sends it as a prompt). " +
	"Keys and approvals come from this terminal."

// InputTerminal says whether a user can answer approvals, and what to tell them about piped
// input. The full-screen chat reads keys from the terminal itself (/dev/tty) when standard
// input is a pipe, so approvals follow that terminal; the line mode reads standard input.
func InputTerminal(accessible, stdinTerminal bool, tty func() bool) (canAsk bool, note string) {
	switch {
	case stdinTerminal:
		return true, ""
	case accessible || !tty():
		return false, ""
	}
	return true, pipedNotice
}

// TTYAvailable reports whether the controlling terminal can be opened.
func TTYAvailable() bool {
	f, err := os.Open("/dev/tty")
	if err != nil {
		return false
	}
	f.Close()
	return true
}
