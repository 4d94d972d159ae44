package view

import (
	"strconv"

	"github.com/phasechat/phasechat/view/rows"
	"github.com/phasechat/phasechat/view/safe"
)

// queueRow is the row between the composer's label and the composer while messages are queued: the newest one,
// on one line, after "▶ queued: " — with the count when more than one is queued, and how to
// send them when the queue waits (the turn before failed or was stopped).
func queueRow(st *theme, queued []string, waits bool, width int) string {
	n := len(queued)
	head := "▶ queued"
	if n > 1 {
		head = "▶ " + strconv.Itoa(n) + " queued, newest"
	}
	if waits {
		head += " (waiting: enter sends)"
	}
	return st.Note.Paint(rows.Fit(head+": "+safe.Line(queued[n-1]), width))
}

// queueNote is what the status line adds while the queue waits, so the error or the stop it
// follows says what becomes of the queue.
func queueNote(queued int, waits bool) string {
	switch {
	case !waits || queued == 0:
		return ""
	case queued == 1:
		return "   1 queued: enter sends it"
	}
	return "   " + strconv.Itoa(queued) + " queued: enter sends them"
}
