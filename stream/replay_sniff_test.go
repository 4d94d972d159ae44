package stream

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/stream/wire"
)

// replayRefuses reports whether Replay turned body away as not an event stream at all.
func replayRefuses(t *testing.T, body []byte) (bool, wire.Result) {
	t.Helper()
	res, err := Replay(bytes.NewReader(body), "", ReplayJSON, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Err != nil && (errors.Is(res.Err.Cause, errTextBody) || errors.Is(res.Err.Cause, errHTMLBody)), res
}

const okChunk = `{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}`

// Every body the framer reads an event from replays, however it starts: a byte order mark,
// fields the framer ignores, a bare field name, prose, or more than the sniffing window of
// them before the first event.
func TestReplayTakesEveryValidSSEBody(t *testing.T) {
	for name, body := range map[string]string{
		"a byte order mark":          "\ufeffdata: " + okChunk + "\n\n",
		"an unknown field first":     "foo: bar\ndata: " + okChunk + "\n\n",
		"a bare data line first":     "data\n\ndata: " + okChunk + "\n\n",
		"an id first":                "id: 7\ndata: " + okChunk + "\n\n",
		"blank lines first":          "\n\r\n\ndata: " + okChunk + "\n\n",
		"a prose line first":         "hello there\ndata: " + okChunk + "\n\n",
		"a BOM and an unknown field": "\ufeffx-note: 1\r\ndata:" + okChunk + "\r\n\r\n",
		"prose past the window":      strings.Repeat("just words here\n", 64) + "data: " + okChunk + "\n\n",
	} {
		t.Run(name, func(t *testing.T) {
			no, res := replayRefuses(t, []byte(body))
			if no || res.Message.Text() != "hi" || res.Outcome != wire.OutcomeComplete {
				t.Errorf("refused %v, result %+v", no, res)
			}
		})
	}
}

// FuzzReplayTakesWhatTheFramerReads: replay never refuses a body from which the framer reads
// an event (a body starting with '{' or '<' is read as a JSON answer or an HTML page first,
// by design, and left out).
func FuzzReplayTakesWhatTheFramerReads(f *testing.F) {
	for _, seed := range []string{
		"\ufeffdata: x\n\n", "foo: bar\ndata: x\n\n", "data\n\n", "hello\ndata: x", "retry\rdata:x\r\r",
		": c\ndata: x\n\n", "name = 1\n[a]\n", "  x: y\n\ndata: z\n\n", "\ufeff\ufeffdata: x\n\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		head := bytes.TrimLeft(bytes.TrimPrefix(body, bom), " \t\r\n")
		if len(head) > 0 && (head[0] == '{' || head[0] == '<') {
			return
		}
		got, _, err := frames(t, bytes.NewReader(body))
		if err != nil || len(got) == 0 {
			return
		}
		if no, res := replayRefuses(t, body); no {
			t.Fatalf("the framer reads %q from %q, but replay refuses it: %s", got[0].Data, body, res.Err.Message)
		}
	})
}
