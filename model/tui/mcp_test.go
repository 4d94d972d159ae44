package tui

import (
	"strings"
	"testing"

	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/view/safe"
)

// The MCP servers' state reaches the footer and their notices the transcript, while the
// composer stays usable.
func TestMCPStateShowsInTheFooterAndTranscript(t *testing.T) {
	h := newHarness(t, "text", 100, 20)
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	servers := mcp.Start(mcp.Config{"gone": {Command: "/nonexistent/phasechat-test-server"}}, mcp.Options{Registry: reg})
	t.Cleanup(func() { servers.Close() })
	h.m.mcp = servers
	if !h.m.composerEnabled() {
		t.Fatal("the composer must be usable while servers start")
	}
	cmd := h.m.Init()
	for range 10 {
		msg, ok := cmd().(mcpMsg)
		if !ok {
			t.Fatal("Init must wait for the servers' state")
		}
		next, _ := h.m.Update(msg) // its command waits for the next change: not run here
		h.m = next.(*Model)
		screen := h.m.View().Content
		if strings.Contains(screen, "MCP 0/1") && strings.Contains(screen, "MCP server gone failed to start: could not start") {
			return
		}
		cmd = waitMCP(servers)
	}
	t.Fatalf("the footer or the notice is missing:\n%s", h.m.View().Content)
}
