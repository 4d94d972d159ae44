package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// blockingMCPEnv, set to a folder, makes the test binary an MCP stdio server (see TestMain)
// whose one tool, block, creates the file "running" in that folder and never finishes.
const blockingMCPEnv = "PHASECHAT_E2E_BLOCKING_MCP"

// serveBlockingMCP serves the blocking tool on standard input and output until the client
// goes, or the process is killed.
func serveBlockingMCP(dir string) int {
	srv := sdk.NewServer(&sdk.Implementation{Name: "phasechat-e2e", Version: "1"}, nil)
	srv.AddTool(&sdk.Tool{Name: "block", Description: "Never finishes.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			os.WriteFile(filepath.Join(dir, "running"), nil, 0o600)
			<-ctx.Done()
			return nil, ctx.Err()
		})
	if err := srv.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}
