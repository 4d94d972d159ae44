package view

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/safe"
)

const (
	stopButton  = "[ Stop · Esc ]"
	retryButton = "[ Retry · Enter ]"
	// buttonReserve is kept free at the right of every status row, whether a control shows or
	// not, so the text wraps the same way in every phase: the widest button and a gap.
	buttonReserve = 17 + 2
	// narrowWidth is the width under which the control gets a row of its own.
	narrowWidth    = 40
	maxStatusLines = 3
)

// statusBlock is the status line and the phase's control (docs/phases.md). The status text is
// safe.Line(phase.Status(state)), wrapped and capped at maxRows rows; the control (Stop while
// streaming, Retry in the error phase) sits at the right end of the block's last row, which is
// always the row just above the composer's label, so it never moves between phases. Under
// narrowWidth columns the control takes that last row alone (blank when there is none).
type statusBlock struct {
	rows    []string
	ctlRow  int  // the control's row in rows
	ctlCol  int  // the column of the control's label (the cursor goes there)
	hasCtl  bool // a control is shown
	focused bool // the shown control holds the focus
}

// note is a line of the front end's own shown instead of the phase's status text.
type note struct {
	text  string
	error bool
}

// retryLabel is the Retry control: with an automatic retry pending, its countdown.
func retryLabel(t Timing) string {
	switch {
	case t.RetryIn <= 0:
		return retryButton
	case t.RetryQuick:
		return "[ Retrying once… · Enter now ]"
	}
	return "[ Retry in " + strconv.Itoa(int((t.RetryIn+time.Second-1)/time.Second)) + "s · Enter now ]"
}

// waitingNote is what the status line adds while the stream is silent: "waiting 12s".
func waitingNote(t Timing) string {
	if t.Waiting < time.Second {
		return ""
	}
	return "   waiting " + strconv.Itoa(int(t.Waiting/time.Second)) + "s"
}

// renderStatusTimed is renderStatus with time passing: the silence note after the status
// text, the countdown on the Retry control.
func renderStatusTimed(st *theme, state phase.State, n note, focus phase.Focus, timing Timing, width, maxRows int) statusBlock {
	ctl := phase.ControlsFor(state.Phase)
	var b statusBlock
	button := ""
	switch {
	case ctl.Stop:
		button, b.focused = stopButton, focus == phase.FocusStop
	case ctl.Retry:
		button, b.focused = retryLabel(timing), focus == phase.FocusRetry
	}
	silence := waitingNote(timing)
	b.hasCtl = button != ""
	look := st.Status
	if state.Phase == phase.Error && n.text == "" || n.error {
		look = st.StatusError
	}
	narrow := width < narrowWidth
	textRows, avail := maxRows, width-max(buttonReserve, ansi.StringWidth(button)+2)
	if narrow {
		textRows, avail = maxRows-1, width
	}
	var wrapped []string
	if textRows > 0 {
		if n.text != "" {
			wrapped = strings.Split(ansi.Wrap(safe.Line(n.text), max(1, avail), ""), "\n")
		} else {
			wrapped = statusRows(shortenReason(state, silence, max(1, avail), textRows), silence, max(1, avail))
		}
		if len(wrapped) > textRows {
			wrapped = wrapped[:textRows]
			wrapped[textRows-1] = fit(strings.TrimRight(wrapped[textRows-1], " ")+"…", avail)
		}
	}
	for _, w := range wrapped {
		b.rows = append(b.rows, look.paint(strings.TrimRight(w, " ")))
	}
	if narrow || len(b.rows) == 0 {
		b.rows = append(b.rows, "")
	}
	b.ctlRow = len(b.rows) - 1
	if !b.hasCtl {
		return b
	}
	bw := ansi.StringWidth(button)
	if bw > width {
		button, bw = fit(button, width), min(bw, width)
	}
	col := width - bw
	last := b.rows[b.ctlRow]
	pad := max(0, col-ansi.StringWidth(last))
	buttonLook := st.Button
	if b.focused {
		buttonLook = st.ButtonFocused
	}
	b.rows[b.ctlRow] = last + strings.Repeat(" ", pad) + buttonLook.paint(button)
	b.ctlCol = min(col+2, width-1)
	return b
}

func statusRows(state phase.State, silence string, width int) []string {
	return strings.Split(ansi.Wrap(safe.Line(phase.Status(state))+silence, width, ""), "\n")
}

// shortenReason cuts the free text of a status — an error's reason, or what an approval
// question says the tool will run with — ending it in "…", just enough for the whole status to
// fit rows rows, so what the user acts on (the keys at its end) is never the part cut. The
// transcript and the card keep the whole text.
func shortenReason(state phase.State, silence string, width, rows int) phase.State {
	field := &state.Reason
	switch {
	case state.Phase == phase.StreamingTool && state.Ask != "":
		field = &state.Ask
	case state.Phase != phase.Error:
		return state
	}
	if len(statusRows(state, silence, width)) <= rows {
		return state
	}
	text := []rune(*field)
	cut := func(n int) phase.State {
		*field = strings.TrimSpace(string(text[:n])) + "…"
		return state
	}
	lo, hi := 0, len(text) // the longest cut that fits is in [lo, hi]
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if len(statusRows(cut(mid), silence, width)) <= rows {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cut(lo)
}

// composerLabel names the composer and says when it takes no input.
// While a reply streams the composer keeps what is typed, and Enter waits for the reply to end.
func composerLabel(st *theme, enabled, draft bool, width int) string {
	switch {
	case enabled:
		return st.Label.paint(fit("Message", width))
	case draft:
		return st.LabelDisabled.paint(fit("Message — draft kept; Enter sends it once the reply ends", width))
	}
	return st.LabelDisabled.paint(fit("Message — type ahead; Enter sends once the reply ends", width))
}

// composerRows prepares the model's pre-rendered composer: every escape but SGR is removed
// (all of them in plain mode) and the text is sanitised, each row fits width, and a disabled
// composer loses its own styling for the Disabled style. At most maxRows rows are kept, the
// window sliding to keep cursorY in view; top is the first kept row.
func composerRows(st *theme, composer string, enabled bool, width, maxRows, cursorY int) (rows []string, top int) {
	all := strings.Split(composer, "\n")
	if maxRows <= 0 {
		return nil, 0
	}
	if len(all) > maxRows {
		top = min(max(0, cursorY-maxRows+1), len(all)-maxRows)
		all = all[top : top+maxRows]
	}
	for _, row := range all {
		keep := st.Color && enabled
		row = cleanStyled(row, keep)
		if ansi.StringWidth(row) > width {
			row = ansi.Truncate(row, width, "")
		}
		if keep {
			row = trimStyledEnd(row)
		} else {
			row = strings.TrimRight(row, " ")
			if !enabled {
				row = st.Disabled.paint(row)
			}
		}
		rows = append(rows, row)
	}
	return rows, top
}
