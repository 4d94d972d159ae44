package view

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
)

// TestFitStatus: the status's own message wins the space. Where the full key hint fits beside
// the control, the layout is as it always was; narrower, the hint shortens first, then the
// control takes a row of its own, and only then is the message cut, never beyond three rows.
func TestFitStatus(t *testing.T) {
	const reason = "The server sent an error: The server had an error while processing your request. Sorry about that!"
	errorState := phase.State{Phase: phase.Error, Reason: reason}
	short := phase.State{Phase: phase.Error, Reason: "Connection refused"}
	button := ansi.StringWidth(retryButton)
	for _, tc := range []struct {
		name          string
		state         phase.State
		width, rows   int
		want          string // the rows joined by spaces
		ownRow        bool
		wantRowsAtMax int
	}{
		{"wide keeps the full hint", errorState, 80, 4, reason + " " + phase.RetryHint, false, 3},
		{"short reason fits beside at 60", short, 60, 4, "Connection refused. " + phase.RetryHint, false, 2},
		{"short hint beside at 60", errorState, 60, 4, reason + " Enter retries.", false, 3},
		{"own row at 40", errorState, 40, 4, reason + " Enter retries.", true, 3},
		{"own row with two rows cuts the message", errorState, 40, 3, "The server sent an error: The server had an error while processin… Enter retries.", true, 2},
		{"narrow cuts the message, keeps the hint", errorState, 30, 4, "The server sent an error: The server had an error while processing you… Enter retries.", true, 3},
		{"one row beside", errorState, 60, 1, "The server sent an error:… Enter retries.", false, 1},
		{"narrow with one row shows only the control", errorState, 30, 1, "", true, 0},
		{"idle is untouched", phase.State{Phase: phase.Idle}, 40, 4, phase.StatusIdle, false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, ownRow := fitStatus(tc.state, phase.FocusRetry, "", tc.width, tc.rows, button)
			if ownRow != tc.ownRow {
				t.Errorf("own row = %v, want %v", ownRow, tc.ownRow)
			}
			if len(rows) > tc.wantRowsAtMax {
				t.Errorf("%d rows, want at most %d: %q", len(rows), tc.wantRowsAtMax, rows)
			}
			avail := tc.width
			if !ownRow {
				avail = tc.width - buttonReserve
			}
			for _, r := range rows {
				if w := ansi.StringWidth(r); w > avail {
					t.Errorf("row %q is %d wide, room is %d", r, w, avail)
				}
			}
			if got := strings.Join(strings.Fields(strings.Join(rows, " ")), " "); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
