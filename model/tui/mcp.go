package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/phasechat/phasechat/model/mcp"
)

// mcpMsg is a change in the MCP servers' state: the footer's count and notices to show once.
type mcpMsg struct {
	update mcp.Update
	from   *mcp.Manager
}

// waitMCP waits for the next change of the servers' state; it ends with the manager.
func waitMCP(m *mcp.Manager) tea.Cmd {
	if m == nil {
		return nil
	}
	return func() tea.Msg {
		u, ok := m.Next()
		if !ok {
			return nil
		}
		return mcpMsg{update: u, from: m}
	}
}

// applyMCP shows a change of the servers' state and waits for the next one.
func (m *Model) applyMCP(msg mcpMsg) (*Model, tea.Cmd) {
	m.footer.MCP = msg.update.Footer
	for _, n := range msg.update.Notices {
		m.chat.Notice(n)
	}
	return m, waitMCP(msg.from)
}
