package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/chat"
)

// stop is Esc while a request runs: before the reply's first byte the message goes back into
// the composer (before what was typed since), not sent; after it, the request stops and the
// partial reply stays.
func (m *Model) stop() (*Model, tea.Cmd) {
	text, effects, ok := m.chat.Withdraw()
	if !ok {
		return m.after(m.chat.Stop())
	}
	if draft := m.composer.Value(); strings.TrimSpace(draft) != "" {
		text += "\n" + draft
	}
	m.composer.SetValue(text)
	m.composer.MoveToEnd()
	m.say(chat.Withdrawn)
	return m.after(effects)
}
