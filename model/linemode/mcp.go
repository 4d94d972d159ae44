package linemode

import (
	"github.com/phasechat/phasechat/model/mcp"
)

// watchMCP forwards the MCP servers' notices to the session's loop until the manager
// closes or done is closed. nil m gives a channel that never delivers.
func watchMCP(m *mcp.Manager, done <-chan struct{}) <-chan mcp.Update {
	ch := make(chan mcp.Update)
	if m == nil {
		return ch
	}
	go func() {
		for {
			u, ok := m.Next()
			if !ok {
				return
			}
			select {
			case ch <- u:
			case <-done:
				return
			}
		}
	}()
	return ch
}

// mcpUpdate puts the servers' notices into the transcript, which announces them.
func (s *session) mcpUpdate(u mcp.Update) {
	for _, n := range u.Notices {
		s.chat.Notice(n)
	}
	s.sync()
}
