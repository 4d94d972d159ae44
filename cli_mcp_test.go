package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPListShowsServersToolsAndTheirEstimatedCost(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the servers' stderr logs
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := sdk.NewServer(&sdk.Implementation{Name: "list-test", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
	noop := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	srv.AddTool(&sdk.Tool{Name: "search", Description: "Search the notes", InputSchema: schema, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, noop)
	srv.AddTool(&sdk.Tool{Name: "delete.note", Description: "Delete a note", InputSchema: schema}, noop)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	defer func() {
		ts.CloseClientConnections()
		ts.Close()
	}()
	file := filepath.Join(t.TempDir(), "mcp.toml")
	cfg := "[mcp.notes]\nurl = \"" + ts.URL + "/mcp\"\n\n[mcp.broken]\ncommand = \"/nonexistent/phasechat-mcp\"\n"
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"mcp", "list", "--mcp", file}, strings.NewReader(""), &out, &errOut)
	got := out.String()
	if code != 1 {
		t.Errorf("exit %d with a failed server, want 1; stderr %q", code, errOut.String())
	}
	for _, want := range []string{
		"broken (stdio): failed\n  could not start /nonexistent/phasechat-mcp",
		"notes (http): ready, 2 tools, ~",
		"notes__delete_note", "asks first",
		"notes__search", "read-only, runs at once",
		"Tool definitions add ~", "(an estimate: ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}
