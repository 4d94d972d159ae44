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

// notesServer is an MCP server over streamable HTTP on 127.0.0.1: a read-only search that
// finds "milk", and a delete that asks.
func notesServer(t *testing.T) string {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "list-test", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)
	found := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "found: buy milk"}}}, nil
	}
	srv.AddTool(&sdk.Tool{Name: "search", Description: "Search the notes", InputSchema: schema, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}}, found)
	srv.AddTool(&sdk.Tool{Name: "delete.note", Description: "Delete a note", InputSchema: schema}, found)
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

func TestMCPListShowsServersToolsAndTheirEstimatedCost(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the servers' stderr logs
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	file := filepath.Join(t.TempDir(), "mcp.toml")
	cfg := "[mcp.notes]\nurl = \"" + notesServer(t) + "\"\n\n[mcp.broken]\ncommand = \"/nonexistent/phasechat-mcp\"\n"
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

// A one-shot run waits for its MCP servers, then the model's call to one of their tools runs.
func TestOneShotUsesMCPTools(t *testing.T) {
	dir := t.TempDir()
	chunk := func(delta string, finish string) string {
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		return `data {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
	}
	scenario := strings.Join([]string{"description one mcp call", "followup quote", "status 200", "header Content-Type: text/event-stream",
		chunk(`{"role":"assistant","content":"Searching."}`, ""),
		chunk(`{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"notes__search","arguments":"{\"q\":\"milk\"}"}}]}`, ""),
		chunk(`{}`, "tool_calls"), "data [DONE]"}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "notes.scenario"), []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	rf := newRecordingFixtures(t, 0, dir)
	file := filepath.Join(t.TempDir(), "mcp.toml")
	if err := os.WriteFile(file, []byte("[mcp.notes]\nurl = \""+notesServer(t)+"\"\n[mcp.broken]\ncommand = \"/nonexistent/phasechat-mcp\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := runOneShotChild(t, t.TempDir(), "", "-p", "--no-save", "--base-url", rf.base, "--model", "notes", "--mcp", file, "find milk")
	if res.code != 0 || !strings.Contains(res.stdout, "found: buy milk") {
		t.Errorf("exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "MCP server broken failed to start") {
		t.Errorf("stderr %q: want the failed server named", res.stderr)
	}
}
