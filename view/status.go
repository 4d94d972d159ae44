package view

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/view/rows"
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

// renderStatusTimed is renderStatus with time passing: the turn's counters, the silence note
// and the queue's (queueNote) after the status text, the countdown on the Retry control.
func renderStatusTimed(st *theme, state phase.State, n note, focus phase.Focus, timing Timing, queue string, width, maxRows int) statusBlock {
	ctl := phase.ControlsFor(state.Phase)
	var b statusBlock
	button := ""
	switch {
	case ctl.Stop:
		button, b.focused = stopButton, focus == phase.FocusStop
	case ctl.Retry:
		button, b.focused = retryLabel(timing), focus == phase.FocusRetry
	}
	silence := counterNote(timing) + waitingNote(timing) + queue
	b.hasCtl = button != ""
	look := st.Status
	if state.Phase == phase.Error && n.text == "" || n.error {
		look = st.StatusError
	}
	var wrapped []string
	ownRow := width < narrowWidth
	if n.text != "" {
		textRows, avail := min(maxStatusLines, maxRows), width-max(buttonReserve, ansi.StringWidth(button)+2)
		if ownRow {
			textRows, avail = maxRows-1, width
		}
		if textRows > 0 {
			wrapped = strings.Split(ansi.Wrap(safe.Line(n.text), max(1, avail), ""), "\n")
			if len(wrapped) > textRows {
				wrapped = wrapped[:textRows]
				wrapped[textRows-1] = rows.Fit(strings.TrimRight(wrapped[textRows-1], " ")+"…", avail)
			}
		}
	} else {
		wrapped, ownRow = fitStatus(state, focus, silence, width, maxRows, ansi.StringWidth(button))
	}
	for _, w := range wrapped {
		b.rows = append(b.rows, look.Paint(strings.TrimRight(w, " ")))
	}
	if ownRow || len(b.rows) == 0 {
		b.rows = append(b.rows, "")
	}
	b.ctlRow = len(b.rows) - 1
	if !b.hasCtl {
		return b
	}
	bw := ansi.StringWidth(button)
	if bw > width {
		button, bw = rows.Fit(button, width), min(bw, width)
	}
	col := width - bw
	last := b.rows[b.ctlRow]
	pad := max(0, col-ansi.StringWidth(last))
	buttonLook := st.Button
	if b.focused {
		buttonLook = st.ButtonFocused
	}
	b.rows[b.ctlRow] = last + strings.Repeat(" ", pad) + buttonLook.Paint(button)
	b.ctlCol = min(col+2, width-1)
	return b
}

// fitStatus lays out the phase's status text for a status block of at most maxRows rows and
// width columns whose control is buttonWidth wide: the rows of text (at most maxStatusLines)
// and whether the control takes a row of its own below them (always under narrowWidth). The
// text is the whole status when it fits beside the control. Where the full key hint cannot
// fit beside the control, the status's own message wins: the hint takes its short form
// (phase.StatusShort) first, then the control moves to a row of its own so the text has the
// full width, and only then is the message cut. Where the full hint fits beside the control,
// the message is cut and the full hint kept.
func fitStatus(state phase.State, focus phase.Focus, silence string, width, maxRows, buttonWidth int) (out []string, ownRow bool) {
	out, ownRow = layStatus(state, focus, silence, width, maxRows, buttonWidth)
	limit, avail := min(maxStatusLines, maxRows), max(1, width-max(buttonReserve, buttonWidth+2))
	if ownRow {
		limit, avail = min(maxStatusLines, maxRows-1), width
	}
	if len(out) > limit { // even the shortest message does not fit: cut the last row
		out = out[:max(0, limit)]
		if limit > 0 {
			out[limit-1] = rows.Fit(strings.TrimRight(out[limit-1], " ")+"…", avail)
		}
	}
	return out, ownRow
}

func layStatus(state phase.State, focus phase.Focus, silence string, width, maxRows, buttonWidth int) (rows []string, ownRow bool) {
	full := func(s phase.State) string { return phase.StatusFocused(s, focus) }
	short := func(s phase.State) string { return phase.StatusShortFocused(s, focus) }
	beside := max(1, width-max(buttonReserve, buttonWidth+2))
	besideRows := min(maxStatusLines, maxRows)
	ownRows := min(maxStatusLines, maxRows-1)
	fits := func(status string, width, rows int) ([]string, bool) {
		wrapped := wrapStatus(status, silence, width)
		return wrapped, rows > 0 && len(wrapped) <= rows
	}
	if width < narrowWidth {
		if ownRows <= 0 {
			return nil, true
		}
		if r, ok := fits(full(state), width, ownRows); ok {
			return r, true
		}
		if r, ok := fits(short(state), width, ownRows); ok {
			return r, true
		}
		return wrapStatus(short(shortenReason(state, short, silence, width, ownRows)), silence, width), true
	}
	if besideRows <= 0 {
		return nil, false
	}
	if r, ok := fits(full(state), beside, besideRows); ok {
		return r, false
	}
	if state.Phase != phase.Error || ansi.StringWidth(phase.ErrorHint(focus)) <= beside {
		return wrapStatus(full(shortenReason(state, full, silence, beside, besideRows)), silence, beside), false
	}
	if r, ok := fits(short(state), beside, besideRows); ok {
		return r, false
	}
	if ownRows > 0 {
		if r, ok := fits(short(state), width, ownRows); ok {
			return r, true
		}
		return wrapStatus(short(shortenReason(state, short, silence, width, ownRows)), silence, width), true
	}
	return wrapStatus(short(shortenReason(state, short, silence, beside, besideRows)), silence, beside), false
}

// wrapStatus is a status text with the silence note, sanitised and wrapped to width.
func wrapStatus(status, silence string, width int) []string {
	return strings.Split(ansi.Wrap(safe.Line(status)+silence, max(1, width), ""), "\n")
}

// shortenReason cuts the free text of a status — an error's reason, or what an approval
// question says the tool will run with — ending it in "…", just enough for the whole status to
// fit rows rows, so what the user acts on (the keys at its end) is never the part cut. The
// transcript and the card keep the whole text.
func shortenReason(state phase.State, status func(phase.State) string, silence string, width, rows int) phase.State {
	field := &state.Reason
	switch {
	case state.Phase == phase.StreamingTool && state.Ask != "":
		field = &state.Ask
	case state.Phase != phase.Error:
		return state
	}
	if len(wrapStatus(status(state), silence, width)) <= rows {
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
		if len(wrapStatus(status(cut(mid)), silence, width)) <= rows {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return cut(lo)
}

// composerLabel names the composer and says when it takes no input.
// While a reply streams the composer keeps what is typed, and Enter waits for the reply to end.
func composerLabel(st *theme, enabled, draft bool, attached []string, width int) string {
	label := "Message — type ahead; Enter sends once the reply ends"
	switch {
	case enabled:
		label = "Message"
	case draft:
		label = "Message — draft kept; Enter sends it once the reply ends"
	}
	if len(attached) > 0 {
		label += " · with " + safe.Line(strings.Join(attached, " ")) + " (/attach clear drops them)"
	}
	if enabled {
		return st.Label.Paint(rows.Fit(label, width))
	}
	return st.LabelDisabled.Paint(rows.Fit(label, width))
}

// composerRows prepares the model's pre-rendered composer: every escape but SGR is removed
// (and colour in mono styles, everything in plain styles), the text is sanitised, each row
// fits width, and a disabled composer loses its own styling for the Disabled style. At most
// maxRows rows are kept, the window sliding to keep cursorY in view; top is the first kept row.
func composerRows(st *theme, composer string, enabled bool, width, maxRows, cursorY int) (out []string, top int) {
	all := strings.Split(composer, "\n")
	if maxRows <= 0 {
		return nil, 0
	}
	if len(all) > maxRows {
		top = min(max(0, cursorY-maxRows+1), len(all)-maxRows)
		all = all[top : top+maxRows]
	}
	keep := keepNone
	if enabled {
		keep = st.keep
	}
	for _, row := range all {
		row = cleanStyled(row, keep)
		if ansi.StringWidth(row) > width {
			row = ansi.Truncate(row, width, "")
		}
		if keep != keepNone {
			row = rows.TrimStyledEnd(row)
		} else {
			row = strings.TrimRight(row, " ")
			if !enabled {
				row = st.Disabled.Paint(row)
			}
		}
		out = append(out, row)
	}
	return out, top
}
