package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view"
)

// The inline mode (--inline) runs the chat in the terminal's main screen, without mouse
// capture: each entry the turn has settled (chat.Settled) is printed once, in transcript
// order, into the terminal's own scrollback, and only the live part — the entries not yet
// printed, the status, the composer, the help and the footer — is redrawn below it. Everything
// else (engine, keys, phases, rendering, the sanitiser) is the full-screen mode's.
//
// What is in the scrollback is state: next, a cursor over the transcript. The entries before
// it were handed to a print command; the transcript's change journal moves it back when
// entries under it are removed (cleared, restarted, a reply regenerated), so the new ones are
// printed in their turn. Update only moves the cursor and takes snapshots of the entries it
// passes; the print command draws them (printer), off the model's goroutine, prints them above
// the live part and reports back (printedMsg). Only one print command is out at a time, so
// what several Updates settle is printed in order; what settles meanwhile waits in the live
// part. An entry leaves the live part when its print command is issued.
//
// Bubble Tea prints above the program by scrolling the screen up by the printed lines and
// inserting them over the top of its area, so a print must never be taller than the rows
// above that area, or rows of the area itself would scroll into the history. The live part is
// therefore kept liveReserve rows short of the terminal, and prints go in chunks of at most
// that many lines.
type inlineMode struct {
	on       bool
	changes  *transcript.Reader // the transcript's journal, read at every Update for removed entries
	next     int                // the entries before it were handed to a print command
	print    printer
	inFlight bool // a print command has not reported back yet
	quitting bool // the user quit: everything left is printed, then the program ends
	done     bool // everything is printed and the program ends: the live part is gone
}

// newInlineMode is the inline mode over c's transcript, printing in st (measure as
// Options.Measure). Nothing of the transcript is printed yet.
func newInlineMode(c *chat.Chat, st view.Styles, measure int) inlineMode {
	return inlineMode{on: true, changes: c.Follow(), print: printer{styles: st, measure: measure}}
}

// printer draws entries for the scrollback exactly as the screen draws them
// (view.Renderer.Lines), with a renderer of its own: it runs in a print command, beside the
// model's renderer.
type printer struct {
	styles  view.Styles
	measure int
}

func (p printer) lines(entries []*transcript.Entry, width int) []string {
	return view.NewRenderer(p.styles, view.WithMeasure(p.measure)).Lines(entries, width)
}

// printedMsg says the print command issued last has printed all it had.
type printedMsg struct{}

// quitInlineMsg asks the inline mode to print what is left and then quit.
type quitInlineMsg struct{}

// liveReserve is how many rows of a terminal height rows tall the live part leaves free: the
// most lines one print may have.
func liveReserve(height int) int { return max(1, height/4) }

// quit is the command that ends the program after cmd: at once in the full screen; inline,
// after everything not yet in the scrollback is printed. A command waiting for the reply is
// dropped: nothing new runs while quitting.
func (m *Model) quit(cmd tea.Cmd) tea.Cmd {
	m.afterReply = ""
	if !m.inline.on {
		return tea.Sequence(cmd, tea.Quit)
	}
	return tea.Sequence(cmd, func() tea.Msg { return quitInlineMsg{} })
}

// inlineAfter is the inline mode's part of every Update: it takes its own messages and hands
// whatever has settled to a print command. It draws nothing.
func (m *Model) inlineAfter(msg tea.Msg) tea.Cmd {
	in := &m.inline
	switch msg.(type) {
	case printedMsg:
		in.inFlight = false
	case quitInlineMsg:
		in.quitting = true
	}
	m.follow() // the terminal scrolls its own scrollback; a key that scrolled changes nothing
	in.readChanges()
	defer m.unfocusPrinted()
	if in.inFlight || in.done || (!m.sized && !in.quitting) { // nothing is printed before the real width is known
		return nil
	}
	entries := m.chat.Entries()
	upto := m.chat.Settled()
	if in.quitting {
		upto = len(entries)
	}
	if upto <= in.next {
		if in.quitting {
			in.done = true
			return tea.Quit
		}
		return nil
	}
	from := in.next
	in.next, in.inFlight = upto, true
	m.unfocusPrinted() // printed with a selection mark, it would keep it for good
	batch := make([]*transcript.Entry, 0, upto-from)
	for _, e := range entries[from:upto] {
		batch = append(batch, e.Snapshot())
	}
	return in.print.command(batch, m.width, liveReserve(m.height))
}

// readChanges moves the cursor back to where entries were removed under it.
func (in *inlineMode) readChanges() {
	for _, c := range in.changes.Changes() {
		if c.Kind == transcript.EntriesRemoved {
			in.next = min(in.next, c.Index)
		}
	}
}

// unfocusPrinted leaves no printed card or prompt selected: the card keys select in the live
// part only, where a selection can be seen and expanded.
func (m *Model) unfocusPrinted() {
	if entry, _, ok := m.chat.Focused(); ok && entry < m.inline.next {
		m.chat.ClearFocus()
	}
}

// command draws entries (snapshots, which nothing else touches) at width when it runs, and
// prints them above the program, at most chunk lines at a time, then reports back.
func (p printer) command(entries []*transcript.Entry, width, chunk int) tea.Cmd {
	return func() tea.Msg {
		return printLines(append(p.lines(entries, width), ""), chunk)()
	}
}

// printLines prints lines above the program, at most chunk at a time, then reports back.
func printLines(lines []string, chunk int) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(lines)/chunk+2)
	for len(lines) > 0 {
		n := min(chunk, len(lines))
		text := strings.Join(lines[:n], "\n")
		if text == "" {
			text = ansi.ResetStyle // Bubble Tea prints nothing for an empty text, not an empty line
		}
		cmds = append(cmds, tea.Println(text))
		lines = lines[n:]
	}
	return tea.Sequence(append(cmds, func() tea.Msg { return printedMsg{} })...)
}

// liveFrom is where the live part begins in entries. Update keeps the cursor in step with the
// transcript, so between two Updates it is never past the end.
func (in *inlineMode) liveFrom(entries []*transcript.Entry) int {
	return min(in.next, len(entries))
}

// inlineFrame turns the full-screen frame into the live part's: the entries not printed yet,
// the tail of them when they are taller than the room, and no scrolling (the help offers no
// scroll keys inline: keyState.canScroll).
func (m *Model) inlineFrame(f *view.Frame) {
	f.Entries = f.Entries[m.inline.liveFrom(f.Entries):]
	f.Height = m.liveHeight()
	f.Fit = true
	f.ScrollUp = 0
}

// liveHeight is the most rows the program's own area may have.
func (m *Model) liveHeight() int {
	if !m.inline.on {
		return m.height
	}
	return max(1, m.height-liveReserve(m.height))
}

// expandLive is Ctrl+O inline: it acts on the live part only, and says so when what it would
// expand is printed in the scrollback, where it cannot be drawn again.
func (m *Model) expandLive() {
	if !m.chat.ToggleDetails(m.inline.liveFrom(m.chat.Entries())) && m.facts.of(m.chat) != 0 {
		m.say("Cards already printed to the scrollback cannot be expanded; ctrl+o expands those not printed yet.")
	}
}

// keyFacts is what the entries the card keys act on have together: every entry's in the full
// screen, the live part's inline (a printed card can be neither seen selected nor expanded).
func (k keyState) keyFacts() entryFacts {
	if !k.inline.on {
		return k.facts.of(k.chat)
	}
	entries := k.chat.Entries()
	var f entryFacts
	for _, e := range entries[k.inline.liveFrom(entries):] {
		f |= factsOf(e)
	}
	return f
}
