package stream

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// A reply past MaxReply is stopped with an error that says so; what arrived is kept.
func TestAReplyPastTheLimitIsStoppedAndKept(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		chunk := strings.Repeat("x", 64<<10)
		for i := 0; i < 256; i++ { // 16 MiB, far past the limit below
			if _, err := fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%q}}]}\n\n", chunk); err != nil {
				return
			}
		}
		io.WriteString(w, "data: [DONE]\n\n")
	})
	c.MaxReply = 1 << 20
	s := c.Stream(context.Background(), wire.Request{Model: "m"})
	ups := drain(s)
	res := s.Result()
	st, _ := fold(ups)
	if res.Outcome != wire.OutcomeError || res.Err == nil || !strings.Contains(res.Err.Message, "passed 1 MiB") {
		t.Fatalf("outcome %s, error %v", res.Outcome, res.Err)
	}
	// What was already buffered when the stream was stopped (socket and reader buffers, a few
	// MiB on loopback under load) may still arrive; the stream must stop well short of the
	// whole answer.
	if n := st.Text.Len(); n < 1<<20 || n > 8<<20 {
		t.Fatalf("%d bytes kept, want what arrived up to the limit, not the whole 16 MiB", n)
	}
}

// A whole answer past the size limit says so, not "unexpected end of JSON input".
func TestATooLargeWholeAnswerSaysSo(t *testing.T) {
	c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"%s"},"finish_reason":"stop"}]}`, strings.Repeat("y", MaxFrameSize+1024))
	})
	_, err := c.Complete(context.Background(), wire.Request{Model: "m"})
	if err == nil || !strings.Contains(err.Error(), "larger than 16 MiB") {
		t.Fatalf("error %v", err)
	}
}
