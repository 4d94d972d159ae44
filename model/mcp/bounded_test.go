package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/phasechat/phasechat/model/tools"
)

// hugeAnswerServer is an MCP server over HTTP on 127.0.0.1 port 0 whose tool "huge" answers
// with size bytes of text written 64 KiB at a time (as an event stream, or as one JSON answer)
// until the client stops reading; the rest of the protocol is the SDK's. written counts the
// answer's bytes sent.
func hugeAnswerServer(t *testing.T, size int, events bool) (url string, written *atomic.Int64) {
	t.Helper()
	written = new(atomic.Int64)
	chunk := []byte(strings.Repeat("x", 64<<10))
	srv := sdk.NewServer(&sdk.Implementation{Name: "huge", Version: "1"}, nil)
	srv.AddTool(&sdkTool{Name: "huge", Description: "answers at length", InputSchema: schema(`"n":{"type":"integer"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) { return text(""), nil })
	protocol := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) != nil || req.Method != "tools/call" {
			r.Body = io.NopCloser(bytes.NewReader(body))
			protocol.ServeHTTP(w, r)
			return
		}
		prefix, suffix := `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"content":[{"type":"text","text":"`, `"}]}}`
		if events {
			w.Header().Set("Content-Type", "text/event-stream")
			prefix, suffix = "event: message\ndata: "+prefix, suffix+"\n\n"
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		fmt.Fprint(w, prefix)
		for sent := 0; sent < size; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			written.Add(int64(len(chunk)))
		}
		fmt.Fprint(w, suffix)
	}))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp", written
}

// An HTTP server's answer past MaxMessageSize is refused with an error naming the bound, in
// either form the server answers in: the client stops reading near the bound, so neither what
// is sent nor the memory taken grows with the answer's size.
func TestAnHTTPServersHugeAnswerIsRefused(t *testing.T) {
	const size = 256 << 20
	for _, events := range []bool{false, true} {
		t.Run(map[bool]string{false: "JSON", true: "event stream"}[events], func(t *testing.T) {
			url, written := hugeAnswerServer(t, size, events)
			m, reg := start(t, Config{"big": {URL: url}})
			settle(t, m)
			if st := m.Status(); st[0].State != StateReady {
				t.Fatalf("the server did not start: %+v", st)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res := run(reg, context.Background(), "big__huge", `{}`)
			runtime.ReadMemStats(&after)
			if res.Outcome != tools.OutcomeFailed || !strings.Contains(res.Output, "larger than 16 MiB") {
				t.Fatalf("a 256 MiB answer gave %s: %.300q", res.Outcome, res.Output)
			}
			if n := written.Load(); n >= size {
				t.Errorf("the whole answer (%d MiB) was sent: the client read it all", n>>20)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 8*MaxMessageSize {
				t.Errorf("reading the refused answer allocated %d MiB", grew>>20)
			}
		})
	}
}
