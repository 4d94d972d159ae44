package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/internal/testwait"
)

// The test binary doubles as the MCP servers the tests talk to: run with PHASECHAT_MCPTEST
// set, it serves over stdio instead of running tests.
//
//	stdio       the test tools (testServer)
//	spawn       the same, after starting a grandchild that sleeps in its process group
//	early-exit  writes to stderr and exits 2 at once
func TestMain(m *testing.M) {
	mode := os.Getenv("PHASECHAT_MCPTEST")
	if mode == "" {
		testwait.VerifyTestMain(m) // no server goroutine of ours or the SDK's outlives the tests
		return
	}
	dir := os.Getenv("MCPTEST_DIR")
	if dir != "" {
		os.WriteFile(filepath.Join(dir, "pid-"+strconv.Itoa(os.Getpid())), nil, 0o600)
	}
	switch mode {
	case "early-exit":
		fmt.Fprintln(os.Stderr, "starting up")
		fmt.Fprintln(os.Stderr, "fatal: no API token configured")
		os.Exit(2)
	case "spawn":
		sleeper := exec.Command("sleep", "3600")
		if err := sleeper.Start(); err == nil && dir != "" {
			os.WriteFile(filepath.Join(dir, "pid-"+strconv.Itoa(sleeper.Process.Pid)), nil, 0o600)
		}
		fallthrough
	default:
		fmt.Fprintln(os.Stderr, "test server ready")
		testServer(dir).Run(context.Background(), &sdk.StdioTransport{})
	}
	os.Exit(0)
}

func schema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	if required == nil {
		req = []byte("[]")
	}
	return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// testServer serves the tools every test uses. dir, when set, receives a file "sleeping"
// when a sleep call starts and "cancelled" when the client cancels it.
func testServer(dir string) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "phasechat-test", Version: "1"}, nil)
	args := func(req *sdk.CallToolRequest) map[string]any {
		var m map[string]any
		json.Unmarshal(req.Params.Arguments, &m)
		return m
	}
	srv.AddTool(&sdk.Tool{Name: "echo", Description: "Echo the text back", InputSchema: schema(`"text":{"type":"string"}`, "text"),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text(fmt.Sprint(args(req)["text"])), nil
		})
	srv.AddTool(&sdk.Tool{Name: "write_note", Description: "Pretend to write a note", InputSchema: schema(`"text":{"type":"string"}`, "text")},
		func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return text("wrote " + fmt.Sprint(args(req)["text"])), nil
		})
	srv.AddTool(&sdk.Tool{Name: "sleep", Description: "Never finishes until cancelled", InputSchema: schema(""),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if dir != "" {
				os.WriteFile(filepath.Join(dir, "sleeping"), nil, 0o600)
			}
			<-ctx.Done()
			if dir != "" {
				os.WriteFile(filepath.Join(dir, "cancelled"), []byte(ctx.Err().Error()), 0o600)
			}
			return text("woke up"), nil
		})
	srv.AddTool(&sdk.Tool{Name: "fail", Description: "Always reports an error", InputSchema: schema(""),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "the disk is on fire"}}}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "picture", Description: "An image and a resource", InputSchema: schema(""),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var buf bytes.Buffer
			png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 640, 480)))
			return &sdk.CallToolResult{Content: []sdk.Content{
				&sdk.TextContent{Text: "here it is"},
				&sdk.ImageContent{Data: buf.Bytes(), MIMEType: "image/png"},
				&sdk.ResourceLink{URI: "file:///tmp/notes.txt", Name: "notes"},
			}}, nil
		})
	srv.AddTool(&sdk.Tool{Name: "env", Description: "The server's environment", InputSchema: schema(""),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			b, _ := json.Marshal(os.Environ())
			return text(string(b)), nil
		})
	srv.AddTool(&sdk.Tool{Name: "crash", Description: "The server dies", InputSchema: schema(""),
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "crashing on purpose")
			os.Exit(3)
			return nil, nil
		})
	return srv
}

// stdioServer configures the test binary as a stdio server in mode.
func stdioServer(t *testing.T, mode, dir string) Server { return stdioServerTB(t, mode, dir) }

// stdioServerTB is stdioServer for any test or benchmark. Its startup timeout is half the
// test's patience: a race-instrumented test binary can take seconds to start on a loaded
// machine, more than the default allows.
func stdioServerTB(t testing.TB, mode, dir string) Server {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Server{Command: exe, Env: map[string]string{"PHASECHAT_MCPTEST": mode, "MCPTEST_DIR": dir},
		StartupTimeout: Duration(max(testwait.Patience(t)/2, DefaultStartupTimeout))}
}

// silentServer is a stdio server that says on stderr it is listening and never answers. It
// is a shell, not the test binary, so it is up long before any startup timeout even on a
// loaded machine (a race-instrumented test binary can take a second to start).
func silentServer(dir string) Server {
	return Server{Command: "/bin/sh", Args: []string{"-c", `echo > "$MCPTEST_DIR/pid-$$"; echo "silent server: listening, never answering" >&2; exec sleep 3600`},
		Env: map[string]string{"MCPTEST_DIR": dir}}
}

// httpServer serves testServer over streamable HTTP on 127.0.0.1 port 0. check, when not
// nil, may answer a request itself (e.g. with 401).
func httpServer(t *testing.T, dir string, check func(w http.ResponseWriter, r *http.Request) bool) string {
	t.Helper()
	srv := testServer(dir)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if check != nil && check(w, r) {
			return
		}
		h.ServeHTTP(w, r)
	}))
	ts.Start()
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

type (
	sdkTool        = sdk.Tool
	sdkAnnotations = sdk.ToolAnnotations
)

func echoHandler(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	return text(string(req.Params.Arguments)), nil
}

// httpServerTB serves testServer over streamable HTTP on 127.0.0.1 port 0.
func httpServerTB(tb testing.TB) string {
	tb.Helper()
	srv := testServer("")
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// httpServerFor serves srv over streamable HTTP on 127.0.0.1 port 0.
func httpServerFor(t *testing.T, srv *sdk.Server) string {
	t.Helper()
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

func ioNopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
