package stream

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// Bodies are read by what they are, not only by their label.
func TestMislabelledBodiesAreReadByTheirContent(t *testing.T) {
	const sse = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi there\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	for _, tc := range []struct {
		name, label, body string
		outcome           wire.Outcome
		want              string // the content, or words the error must hold
	}{
		{"an event stream labelled JSON", "application/json", sse, wire.OutcomeComplete, "hi there"},
		{"an event stream labelled NDJSON", "application/x-ndjson", sse, wire.OutcomeComplete, "hi there"},
		{"a JSON error labelled event-stream", "text/event-stream", `{"error":{"message":"model overloaded, try later"}}`, wire.OutcomeError, "model overloaded, try later"},
		{"prose labelled text/plain", "text/plain", "Service temporarily down for maintenance.", wire.OutcomeError, "Service temporarily down for maintenance."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.label)
				io.WriteString(w, tc.body)
			})
			s := c.Stream(context.Background(), wire.Request{Model: "m"})
			drain(s)
			res := s.Result()
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %s (%v), want %s", res.Outcome, res.Err, tc.outcome)
			}
			got := res.Message.Text()
			if res.Err != nil {
				got = res.Err.Message
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want it to hold %q", got, tc.want)
			}
		})
	}
}
