package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view"
)

// The inline mode (--inline) runs the chat in the terminal's main screen, without mouse
// capture: each entry the turn has settled (chat.Settled) is printed once, in transcript
// order, into the terminal's own scrollback, and only the live part — the entries not yet
// printed, the status, the composer, the help and the footer — is redrawn below it. Everything
// else (engine, keys, phases, rendering, the sanitiser) is the full-screen mode's.
//
// Printing goes through commands: Update renders the settled entries (view.Renderer.Lines, at
// the width of the moment) and returns one command printing them above the live part, then
// reporting back (printedMsg). Only one such command is out at a time, so what several
// Updates settle is printed in order; what settles meanwhile waits in the live part. An entry
// leaves the live part when its print command is issued.
//
// Bubble Tea prints above the program by scrolling the screen up by the printed lines and
// inserting them over the top of its area, so a print must never be taller than the rows
// above that area, or rows of the area itself would scroll into the history. The live part is
// therefore kept liveReserve rows short of the terminal, and prints go in chunks of at most
// that many lines.
type inlineMode struct {
	on    bool
	sized bool // a window size arrived: nothing is printed before the real width is known
	// next: the entries before it were handed to a print command; last is entries[next-1]
	// then, to notice a transcript changed under it (cleared, restarted, regenerated).
	next     int
	last     *transcript.Entry
	printed  map[*transcript.Entry]bool // the entries of the transcript handed to a print command
	inFlight bool                       // a print command has not reported back yet
	quitting bool                       // the user quit: everything left is printed, then the program ends
	done     bool                       // everything is printed and the program ends: the live part is gone
}

// printedMsg says the print command issued last has printed all it had.
type printedMsg struct{}

// quitInlineMsg asks the inline mode to print what is left and then quit.
type quitInlineMsg struct{}

// liveReserve is how many rows of a terminal height rows tall the live part leaves free: the
// most lines one print may have.
func liveReserve(height int) int { return max(1, height/4) }

// quit is the command that ends the program after cmd: at once in the full screen; inline,
// after everything not yet in the scrollback is printed.
func (m *Model) quit(cmd tea.Cmd) tea.Cmd {
	if !m.inline.on {
		return tea.Sequence(cmd, tea.Quit)
	}
	return tea.Sequence(cmd, func() tea.Msg { return quitInlineMsg{} })
}

// inlineAfter is the inline mode's part of every Update: it takes its own messages and prints
// whatever has settled.
func (m *Model) inlineAfter(msg tea.Msg) tea.Cmd {
	in := &m.inline
	switch msg.(type) {
	case tea.WindowSizeMsg:
		in.sized = true
	case printedMsg:
		in.inFlight = false
	case quitInlineMsg:
		in.quitting = true
	}
	m.follow() // the terminal scrolls its own scrollback; a key that scrolled changes nothing
	entries := m.chat.Entries()
	from := in.sync(entries)
	defer m.unfocusPrinted()
	if in.inFlight || in.done || (!in.sized && !in.quitting) {
		return nil
	}
	upto := m.chat.Settled()
	if in.quitting {
		upto = len(entries)
	}
	var batch []*transcript.Entry
	for _, e := range entries[from:max(from, upto)] {
		if !in.printed[e] {
			batch = append(batch, e)
			in.printed[e] = true
		}
	}
	if upto > from {
		in.next, in.last = upto, entries[upto-1]
	}
	if len(batch) == 0 {
		if in.quitting {
			in.done = true
			return tea.Quit
		}
		return nil
	}
	in.inFlight = true
	m.unfocusPrinted() // printed with a selection mark, it would keep it for good
	return printLines(append(m.renderer.Lines(batch, m.width), ""), liveReserve(m.height))
}

// unfocusPrinted leaves no printed card or prompt selected: the card keys select in the live
// part only, where a selection can be seen and expanded.
func (m *Model) unfocusPrinted() {
	if entry, _, ok := m.chat.Focused(); ok && entry < m.inline.next {
		m.chat.ClearFocus()
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

// sync returns where the entries not yet handed to a print command begin. When the
// transcript changed under the mark (cleared, restarted, a reply regenerated) it finds the
// place again: after the longest run of printed entries at the start.
func (in *inlineMode) sync(entries []*transcript.Entry) int {
	if in.next <= len(entries) && (in.next == 0 || entries[in.next-1] == in.last) {
		return in.next
	}
	n := in.liveFrom(entries)
	kept := make(map[*transcript.Entry]bool, n)
	for _, e := range entries[:n] {
		kept[e] = true
	}
	in.next, in.last, in.printed = n, nil, kept
	if n > 0 {
		in.last = entries[n-1]
	}
	return n
}

// liveFrom is where the live part begins in entries, without changing the mark: what View
// reads (Update keeps the mark in step, so this is O(1) there).
func (in *inlineMode) liveFrom(entries []*transcript.Entry) int {
	if in.next <= len(entries) && (in.next == 0 || entries[in.next-1] == in.last) {
		return in.next
	}
	n := 0
	for n < len(entries) && in.printed[entries[n]] {
		n++
	}
	return n
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
