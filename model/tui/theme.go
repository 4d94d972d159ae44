package tui

import (
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/view"
)

// askBackground is the start-up question to the terminal when the styles follow its
// background: the answer comes back as a tea.BackgroundColorMsg, or never. Nothing waits for
// it; until it comes the screen is drawn in Options.Styles.
func (m *Model) askBackground() tea.Cmd {
	if m.stylesFor == nil {
		return nil
	}
	return tea.RequestBackgroundColor
}

// onBackground restyles the screen for the background the terminal reported.
func (m *Model) onBackground(msg tea.BackgroundColorMsg) *Model {
	if m.stylesFor != nil {
		m.restyle(m.stylesFor(msg.IsDark()))
	}
	return m
}

// restyle draws everything, the composer included, in st from the next frame on.
func (m *Model) restyle(st view.Styles) {
	m.renderer.SetStyles(st)
	m.inline.print.styles = st
	m.composer.SetStyles(composerStyles(st))
}

// composerStyles are the text area's styles for the background st is chosen for, with st's
// prompt and placeholder (the renderer removes their colour, or every escape, when st has
// none).
func composerStyles(st view.Styles) textarea.Styles {
	s := textarea.DefaultStyles(st.Dark)
	for _, state := range []*textarea.StyleState{&s.Focused, &s.Blurred} {
		state.Prompt, state.Placeholder = st.Prompt, st.Placeholder
	}
	return s
}
