package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/phasechat/phasechat/model/app"
	"github.com/phasechat/phasechat/model/mcp"
)

const mcpUsage = `Usage:
  phasechat mcp list [--mcp FILE] [--config FILE]
      start each MCP server, list its state and tools, and stop them

The servers are the [mcp.NAME] tables of FILE, else of the config file (see the README). The
token figures are estimates: the bytes of a server's tool definitions as sent with every
request, divided by 4. Servers with enabled = false are listed as disabled, not started. The
exit status is 1 when a server failed to start.
`

func runMCP(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "list" {
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	fs := flag.NewFlagSet("phasechat mcp list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("mcp", "", "file of [mcp.NAME] tables")
	configPath := fs.String("config", "", "the config file (default: config.toml in the phasechat config directory)")
	fs.Usage = func() { fmt.Fprint(stderr, mcpUsage) }
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(stderr, mcpUsage)
		return 2
	}
	status, where, err := app.MCPStatus(*path, *configPath, os.LookupEnv, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "phasechat:", err)
		return 1
	}
	if status == nil {
		if where == "" {
			where = "the config file (there is none; give --mcp FILE)"
		}
		fmt.Fprintf(stdout, "No MCP servers are configured in %s.\n", where)
		return 0
	}
	mcp.WriteList(stdout, status)
	for _, s := range status {
		if s.State != mcp.StateReady && s.State != mcp.StateDisabled {
			return 1
		}
	}
	return 0
}
