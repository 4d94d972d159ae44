package linemode

import (
	"os"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/testwait"
	"github.com/phasechat/phasechat/model/mcp"
	"github.com/phasechat/phasechat/model/tools"
	"github.com/phasechat/phasechat/view/safe"
)

// An MCP server that fails to start is announced as a Note while the user can already type.
func TestMCPNoticesAreAnnounced(t *testing.T) {
	base := fixtureURL(t)
	in, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out syncBuffer
	o := sessionOptions(t, base, "text", t.TempDir(), false, in, &out)
	reg, err := tools.NewRegistry(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reg.Clean = safe.Text
	o.MCP = mcp.Start(mcp.Config{"gone": {Command: "/nonexistent/phasechat-test-server"}}, mcp.Options{Registry: reg})
	defer o.MCP.Close()
	wait := start(t, o)
	if !testwait.For(t, func() bool {
		return strings.Contains(out.String(), "Note: MCP server gone failed to start: could not start /nonexistent/phasechat-test-server")
	}) {
		t.Fatalf("no notice:\n%s", out.String())
	}
	w.Close()
	if err := wait(); err != nil {
		t.Fatal(err)
	}
}
