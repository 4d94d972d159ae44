package stream

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/internal/secret"
	"github.com/phasechat/phasechat/stream/wire"
)

// echoKeyServer streams a reply that echoes the Authorization header one or two bytes per
// delta in the content, the reasoning and a tool call's arguments, or (buffered) whole.
func echoKeyServer(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	var req struct {
		Stream bool `json:"stream"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	args, _ := json.Marshal(map[string]string{"cmd": "echo " + auth})
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":%q,"reasoning_content":%q,`+
			`"tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":%q}}]},"finish_reason":"tool_calls"}]}`,
			"your header: "+auth, "I see "+auth, args)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta string) { fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":%s}]}\n\n", delta) }
	pieces := func(s string, f func(string)) {
		for i := 0; i < len(s); i += 2 {
			f(s[i:min(i+2, len(s))])
		}
	}
	pieces("your header: "+auth, func(p string) { q, _ := json.Marshal(p); chunk(`{"content":` + string(q) + `}`) })
	pieces("I see "+auth, func(p string) { q, _ := json.Marshal(p); chunk(`{"reasoning_content":` + string(q) + `}`) })
	chunk(`{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"run","arguments":""}}]}`)
	pieces(string(args), func(p string) {
		q, _ := json.Marshal(p)
		chunk(`{"tool_calls":[{"index":0,"function":{"arguments":` + string(q) + `}}]}`)
	})
	io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n")
}

func TestAKeyEchoedInPiecesNeverLeavesTheClient(t *testing.T) {
	const key = "sk-live-echoed-0123456789"
	const other = "hdr-secret-value-42" // a configured header value, echoed too
	for _, short := range []bool{false, true} {
		c, _ := testServer(t, func(w http.ResponseWriter, r *http.Request) {
			r.Header.Set("Authorization", r.Header.Get("Authorization")+" "+other)
			echoKeyServer(w, r)
		})
		c.APIKey = key
		if short {
			c.APIKey = "k3y" // a local server's short key still goes where it stands alone
		}
		c.Secrets = secret.New(other)
		s := c.Stream(context.Background(), wire.Request{Model: "m"})
		ups := drain(s)
		res := s.Result()
		st, calls := fold(ups)
		list := calls.List()
		if len(list) != 1 {
			t.Fatalf("calls = %+v", list)
		}
		streamed := []string{st.Text.String(), st.Reasoning.String(), list[0].ArgsText, res.Message.Text(), res.Message.Reasoning(), res.Message.Calls()[0].Arguments}
		for _, u := range ups {
			streamed = append(streamed, u.Frame.Data)
		}
		buffered, err := c.Complete(context.Background(), wire.Request{Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		whole := []string{buffered.Message.Text(), buffered.Message.Reasoning(), buffered.Message.Calls()[0].Arguments}
		for _, text := range append(streamed, whole...) {
			if strings.Contains(text, c.APIKey) && (!short || strings.Contains(text, "Bearer "+c.APIKey)) || strings.Contains(text, other) {
				t.Errorf("short key %v: a secret got through: %q", short, text)
			}
		}
		if want := "your header: Bearer [redacted] [redacted]"; st.Text.String() != want || buffered.Message.Text() != want {
			t.Errorf("short key %v: text %q, buffered %q, want %q", short, st.Text.String(), buffered.Message.Text(), want)
		}
		if !json.Valid([]byte(list[0].ArgsText)) || !strings.Contains(list[0].ArgsText, "Bearer [redacted]") {
			t.Errorf("short key %v: arguments %q", short, list[0].ArgsText)
		}
	}
}
