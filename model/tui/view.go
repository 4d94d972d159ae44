package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view"
)

// View draws the screen: a pure function of the model (the renderer, and drawn, only memoise).
// A View with no Update acting on a message since the last one returns what that one drew.
func (m *Model) View() tea.View {
	if m.drawn.ok && m.drawn.gen == m.gen {
		return m.drawn.view
	}
	v := m.draw()
	m.drawn.gen, m.drawn.view, m.drawn.ok = m.gen, v, true
	return v
}

func (m *Model) draw() tea.View {
	if m.inline.done {
		return tea.NewView("") // the conversation is in the scrollback; the live part goes
	}
	if !m.sized && !m.inline.on {
		v := tea.NewView("")
		v.AltScreen = true
		return v
	}
	if m.ed.picker.open {
		v := tea.NewView(m.pickerView())
		v.AltScreen = !m.inline.on
		return v
	}
	if m.picker != nil {
		v := tea.NewView(m.picker.list.View(m.width, m.liveHeight()))
		v.AltScreen = !m.inline.on
		return v
	}
	scr := m.renderer.Render(m.frame())
	v := tea.NewView(scr.Content)
	if !m.inline.on { // inline: the terminal's own screen, scrollback and mouse
		v.AltScreen = true
		v.MouseMode = tea.MouseModeCellMotion
	}
	if scr.Cursor {
		v.Cursor = tea.NewCursor(scr.CursorX, scr.CursorY)
	}
	return v
}

// frame is everything the renderer needs for one screen.
func (m *Model) frame() view.Frame {
	f := m.layoutFrame()
	_, limit := m.renderer.Layout(f)
	f.Help = m.help(limit > 0)
	if m.keysOpen {
		keys := m.allKeys()
		f.Keys = keys[min(m.keysFrom, len(keys)-1):]
	}
	if !m.started() {
		f.Welcome = &m.welcome
	}
	if m.homeScrolls() {
		f.FollowKey = "End"
	} else {
		f.FollowKey = "Ctrl+End"
	}
	return f
}

// layoutFrame is the frame without what does not change the layout (the help line's keys):
// enough for the renderer's Layout.
func (m *Model) layoutFrame() view.Frame {
	f := m.baseFrame()
	f.ScrollUp = m.linesUp()
	return f
}

// baseFrame is layoutFrame following the tail, whatever the scroll position: what the scroll
// position is worked out in.
func (m *Model) baseFrame() view.Frame {
	f := view.Frame{
		Width:    m.width,
		Height:   m.height,
		Entries:  m.chat.Entries(),
		State:    m.chat.State,
		Focus:    m.focus(),
		Composer: m.composerView,
		Footer:   m.footerNow(),
		Timing:   view.Timing{Waiting: m.waiting()},
		Draft:    m.composerText != "",
		Attached: chat.Chips(m.chat.Attached()),
		Queued:   m.queuedTexts(),
	}
	f.QueueWaits = m.chat.QueueWaits()
	f.Timing.RetryIn, f.Timing.RetryQuick = m.chat.RetryIn()
	f.Timing.Elapsed, f.Timing.Tokens, f.Timing.Estimated = m.chat.Counters()
	f.Footer.Turn, f.Footer.Session = usage(m.chat.Turn), usage(m.chat.Session)
	spent(&f.Footer, m.chat)
	f.Note, f.NoteError = m.statusNote()
	if c := m.composer.Cursor(); c != nil && f.Focus == phase.FocusComposer {
		f.ComposerCursorX, f.ComposerCursorY, f.ComposerCursor = c.X, c.Y, true
	}
	if m.inline.on {
		m.inlineFrame(&f)
	}
	return f
}

// started reports whether the conversation has begun: the transcript holds more than notices.
func (m *Model) started() bool {
	for _, e := range m.chat.Entries() {
		if e.Role() != transcript.RoleNotice {
			return true
		}
	}
	return false
}

// spent fills in the footer's context fill and cost from the engine.
func spent(f *view.Footer, c *chat.Chat) {
	if u, ok := c.LastUsage(); ok {
		f.Context, f.Window = u.PromptTokens+u.CompletionTokens, c.Budget().Window
	}
	f.Cost, f.Priced = c.Cost()
}

func usage(u wire.Usage) view.Usage {
	return view.Usage{Prompt: u.PromptTokens, Completion: u.CompletionTokens}
}

// footerNow is the footer with what it must warn of now.
func (m *Model) footerNow() view.Footer {
	f := m.footer
	f.Warning = m.chat.LogWarning
	return f
}
