package sessions

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// HeldChoice is what to do with a conversation another process holds.
type HeldChoice int

const (
	HeldQuit HeldChoice = iota // leave it alone
	HeldView                   // show it, saving nothing
	HeldFork                   // continue it in a copy: a new session whose parent it is
)

// AskHeld says who holds the conversation and asks on out, as a numbered choice read from in,
// what to do with it. Anything but 1 or 2 (an empty line, end of input) is HeldQuit.
func AskHeld(in io.Reader, out io.Writer, e *HeldError) HeldChoice {
	fmt.Fprintf(out, "Session %s is open in another phasechat (%s).\n"+
		"  1  view it here without saving (what you add is not kept)\n"+
		"  2  continue it in a copy (a new session)\n"+
		"  3  quit\n"+
		"Choose 1, 2 or 3: ", e.ID, e.Holder)
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.TrimSpace(line) {
	case "1":
		return HeldView
	case "2":
		return HeldFork
	}
	return HeldQuit
}
