package stream

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/phasechat/phasechat/stream/wire"
	"github.com/phasechat/phasechat/view/safe"
)

func replay(t *testing.T, in string, format ReplayFormat) (string, wire.Result) {
	t.Helper()
	var out bytes.Buffer
	res, err := Replay(strings.NewReader(in), "", format, &out, safe.Text)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), res
}

func TestReplayJSON(t *testing.T) {
	out, _ := replay(t, seed004, ReplayJSON)
	want := `{
  "content": "Found two headings.",
  "reasoning": "",
  "tool_calls": [
    {
      "index": 0,
      "id": "call_0",
      "name": "lookup",
      "arguments": "{\"q\":\"home\"}"
    }
  ],
  "finish_reason": "",
  "usage": null,
  "outcome": "complete",
  "error": null
}
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out, _ = replay(t, "data: "+delta(`{"content":"a"}`)+"\n\n", ReplayJSON)
	if !strings.Contains(out, `"tool_calls": [],`) || !strings.Contains(out, `"outcome": "truncated",`) ||
		!strings.Contains(out, `"error": "The server closed the stream before finishing (no [DONE])."`) {
		t.Errorf("truncated replay:\n%s", out)
	}
}

func TestReplayTrace(t *testing.T) {
	in := ": keep-alive\n\n" + seed004[:strings.Index(seed004, "data: [DONE]")] + "data: oops\n\nevent: error\ndata: {\"error\":{\"message\":\"late\"}}\n\ndata: [DONE]"
	out, _ := replay(t, in, ReplayTrace)
	want := []string{
		`{"n":1,"event":"","data":"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"lookup\"}}]}}]}","kind":"tool","phase":"streaming-tool"}`,
		`{"n":2,"event":"","data":"{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\":\\\"home\\\"}\"}}]}}]}","kind":"tool","phase":"streaming-tool"}`,
		`{"n":3,"event":"","data":"{\"choices\":[{\"delta\":{\"content\":\"Found two headings.\"}}]}","kind":"text","phase":"streaming-text"}`,
		`{"n":4,"event":"","data":"oops","kind":"malformed","phase":"streaming-text"}`,
		`{"n":5,"event":"error","data":"{\"error\":{\"message\":\"late\"}}","kind":"error","phase":"error"}`,
		`{"n":6,"event":"","data":"[DONE]","kind":"done","phase":"error","unterminated":true}`,
		`{"n":0,"event":"","data":"","kind":"error","phase":"error","outcome":"error","error":"The server sent an error: late","malformed":1}`,
	}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
}

func TestReplayTraceEndChangesThePhase(t *testing.T) {
	out, _ := replay(t, "data: "+delta(`{"content":"a"}`)+"\n\ndata: "+finishChunk("stop")+"\n\n", ReplayTrace)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"kind":"ignore","phase":"streaming-text"`) ||
		lines[2] != `{"n":0,"event":"","data":"","kind":"done","phase":"complete","outcome":"complete","error":null,"malformed":0}` {
		t.Errorf("trace:\n%s", out)
	}
}

func TestReplayText(t *testing.T) {
	in := "data: " + delta(`{"reasoning_content":"hmm"}`) + "\n\n" +
		"data: " + delta(`{"content":"Hi \u001b[31mthere\u202e"}`) + "\n\n" +
		"data: " + tool(0, "c", "lookup", `"{\"q\":1}"`) + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}` + "\n\n"
	out, _ := replay(t, in, ReplayText)
	want := "Hi ␛[31mthere<U+202E>\nlookup({\"q\":1})\n-- complete (finish_reason tool_calls; 3 prompt + 4 completion tokens; 3 bytes of reasoning not shown)\n"
	if out != want {
		t.Errorf("got\n%q\nwant\n%q", out, want)
	}
	out, _ = replay(t, "data: "+delta(`{"content":"cut"}`)+"\n\n", ReplayText)
	if out != "cut\n-- truncated: The server closed the stream before finishing (no [DONE]).\n" {
		t.Errorf("got %q", out)
	}
}

func TestReplayJSONBodies(t *testing.T) {
	_, res := replay(t, `{"choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}]}`, ReplayJSON)
	if res.Outcome != wire.OutcomeComplete || res.Message.Text() != "whole" || res.FinishReason != "stop" {
		t.Errorf("a chat.completion: %+v", res)
	}
	_, res = replay(t, `{"error":{"message":"Incorrect API key provided"}}`, ReplayJSON)
	if res.Outcome != wire.OutcomeError || res.Err.Message != "The server sent an error: Incorrect API key provided" {
		t.Errorf("an error body: %+v", res)
	}
}

func TestReplayReadError(t *testing.T) {
	broken := iotest.ErrReader(errors.New("disk on fire"))
	res, err := Replay(broken, "", ReplayJSON, new(bytes.Buffer), safe.Text)
	if err != nil || res.Outcome != wire.OutcomeError || res.Err.Message != "The recording could not be read: disk on fire" {
		t.Errorf("result %+v, err %v", res, err)
	}
}

// A file that is not a recorded event stream is named as a file, not as a server's answer.
func TestReplayOfAFileThatIsNotAnSSEBody(t *testing.T) {
	for _, tt := range []struct{ name, body, want string }{
		{"a TOML file", "name = \"x\"\n[tool]\nargv = [\"a\"]\n", `the file is not an SSE body (a recorded event stream); it starts: name = "x" [tool] argv = ["a"]`},
		{"an HTML page", "<!doctype html><html><body>hi</body></html>", "the file is an HTML page, not an SSE body (a recorded event stream)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, res := replay(t, tt.body, ReplayJSON)
			if res.Outcome != wire.OutcomeError || res.Err == nil || res.Err.Message != tt.want {
				t.Fatalf("result %+v, want the error %q", res, tt.want)
			}
			if strings.Contains(out, "server") {
				t.Fatalf("the output blames a server:\n%s", out)
			}
		})
	}
}
