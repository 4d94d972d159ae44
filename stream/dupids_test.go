package stream

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// Two calls sharing an id: a whole answer runs both, with the ids a stream of it gives.
func TestBufferedCallsSharingAnIDEqualStreamed(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Stream bool `json:"stream"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_0","type":"function","function":{"name":"now","arguments":"{}"}}]}}]}`+"\n\n"+
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_0","type":"function","function":{"name":"now","arguments":"{\"a\":1}"}}]}}]}`+"\n\n"+
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\ndata: [DONE]\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"choices":[{"index":0,"message":{"role":"assistant","tool_calls":[`+
			`{"id":"call_0","type":"function","function":{"name":"now","arguments":"{}"}},`+
			`{"id":"call_0","type":"function","function":{"name":"now","arguments":"{\"a\":1}"}}]},"finish_reason":"tool_calls"}]}`)
	})
	s := c.Stream(context.Background(), wire.Request{Model: "m"})
	ups := drain(s)
	streamed := s.Result()
	_, scalls := fold(ups)
	buffered, err := c.Complete(context.Background(), wire.Request{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	_, bcalls := fold(wire.BufferedUpdates(buffered))
	ids := func(calls []wire.ToolCall) (out []string) {
		for _, c := range calls {
			out = append(out, c.ID+" "+c.Arguments)
		}
		return out
	}
	if got, want := ids(buffered.Message.Calls()), ids(streamed.Message.Calls()); !reflect.DeepEqual(got, want) || len(got) != 2 {
		t.Fatalf("buffered calls %q, streamed %q", got, want)
	}
	if bcalls.Len() != 2 || scalls.Len() != 2 {
		t.Fatalf("calls run: buffered %d, streamed %d; want 2 each", bcalls.Len(), scalls.Len())
	}
}
