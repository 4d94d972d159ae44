package wire

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

const rCreated = `{"type":"response.created","response":{"status":"in_progress","usage":null}}`

func TestResponsesDecoder(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		log     []string
		content string
		finish  string
		outcome Outcome
		err     string
	}{
		{
			name: "parallel calls interleaved, told apart by item_id; each ready at its arguments' done",
			body: sseBody("", rCreated, "", rCall(0, "fc_1", "call_a", "add"), "", rCall(1, "fc_2", "call_b", "mul"),
				"", rArgs(0, "fc_1", `{"a":`), "", rArgs(1, "fc_2", `{"b":`), "", rArgs(0, "fc_1", `1}`),
				"", rArgsDone(0, "fc_1", `{"a":1}`), "", rArgs(1, "fc_2", `2}`), "", rArgsDone(1, "fc_2", `{"b":2}`),
				"", rCompleted("completed")),
			log: []string{"2:start:call_a:add", "3:start:call_b:mul", "4:delta:call_a:{\"a\":", "5:delta:call_b:{\"b\":",
				"6:delta:call_a:1}", "7:ready:call_a", "8:delta:call_b:2}", "9:ready:call_b"},
			finish: "tool_calls", outcome: OutcomeComplete,
		},
		{
			name: "deltas without item_id are routed by output_index; the item's done readies the call",
			body: sseBody("", rCall(3, "fc_1", "call_a", "f"),
				"", `{"type":"response.function_call_arguments.delta","output_index":3,"delta":"{}"}`,
				"", `{"type":"response.output_item.done","output_index":3,"item":{"type":"function_call","id":"fc_1","call_id":"call_a","name":"f","arguments":"{}"}}`,
				"", rCompleted("completed")),
			log:    []string{"1:start:call_a:f", "2:delta:call_a:{}", "3:ready:call_a"},
			finish: "tool_calls", outcome: OutcomeComplete,
		},
		{
			name: "only done events: the whole arguments and text come from them",
			body: sseBody("", `{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","content":[{"type":"output_text","text":"Hello"}]}}`,
				"", `{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{\"x\":1}"}}`,
				"", rCompleted("completed")),
			log:     []string{"2:start:c:f", "2:delta:c:{\"x\":1}", "2:ready:c"},
			content: "Hello", finish: "tool_calls", outcome: OutcomeComplete,
		},
		{
			name: "a text done longer than its deltas adds the rest; a shorter or equal one adds nothing",
			body: sseBody("", rText("m", "Hel"),
				"", `{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":"Hello"}`,
				"", `{"type":"response.output_item.done","output_index":0,"item":{"type":"message","id":"m","content":[{"type":"output_text","text":"Hello"}]}}`,
				"", rCompleted("completed")),
			content: "Hello", finish: "stop", outcome: OutcomeComplete,
		},
		{
			name: "incomplete while a call is open: finish length, the call is not run",
			body: sseBody("", rCall(0, "fc", "c", "write"), "", rArgs(0, "fc", `{"text":"ab`),
				"", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}`),
			log:    []string{"1:start:c:write", "2:delta:c:{\"text\":\"ab", "3:interrupt:c"},
			finish: "length", outcome: OutcomeComplete,
		},
		{
			name: "incomplete for the content filter",
			body: sseBody("", rText("m", "x"),
				"", `{"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"content_filter"}}}`),
			content: "x", finish: "content_filter", outcome: OutcomeComplete,
		},
		{
			name: "an error event mid-stream (the documented shape), then the body ends",
			body: sseBody("", rText("m", "part"), "", rCall(1, "fc", "c", "f"),
				"error", `{"type":"error","code":"server_error","message":"The server had an error","param":null}`),
			log:     []string{"2:start:c:f", "0:interrupt:c"},
			content: "part", outcome: OutcomeError, err: "The server sent an error: The server had an error",
		},
		{
			name: "response.failed ends the stream with the response's error",
			body: sseBody("", rCreated, "", `{"type":"response.failed","response":{"status":"failed","error":{"code":"server_error","message":"Overloaded, try again"}}}`,
				"", rText("m", "late")),
			outcome: OutcomeError, err: "The server sent an error: Overloaded, try again",
		},
		{
			name:    "no end event: truncated",
			body:    sseBody("", rCreated, "", rText("m", "cut")),
			content: "cut", outcome: OutcomeTruncated, err: "The server closed the stream before finishing (no response.completed).",
		},
		{
			name: "a refusal is the reply",
			body: sseBody("", `{"type":"response.refusal.delta","item_id":"m","content_index":0,"delta":"No."}`,
				"", `{"type":"response.refusal.done","item_id":"m","content_index":0,"refusal":"No."}`, "", rCompleted("completed")),
			content: "No.", finish: "stop", outcome: OutcomeComplete,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, res := runWire(t, WireResponses, tt.body)
			if got := blockCallLog(ups); strings.Join(got, "\n") != strings.Join(tt.log, "\n") {
				t.Errorf("calls:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.log, "\n"))
			}
			if res.Message.Text() != tt.content || res.FinishReason != tt.finish || res.Outcome != tt.outcome {
				t.Errorf("content %q finish %q outcome %q", res.Message.Text(), res.FinishReason, res.Outcome)
			}
			if msg := errorText(res.Err); (msg == nil) != (tt.err == "") || msg != nil && *msg != tt.err {
				t.Errorf("error %v, want %q", res.Err, tt.err)
			}
		})
	}
}

func TestResponsesReasoning(t *testing.T) {
	summary := func(i int, delta string) string {
		return fmt.Sprintf(`{"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":%d,"delta":%q}`, i, delta)
	}
	item := `{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"**A** one"},{"type":"summary_text","text":"**B** two"}],"encrypted_content":"enc"}`
	body := sseBody("", summary(0, "**A**"), "", summary(0, " one"), "", summary(1, "**B**"),
		"", `{"type":"response.reasoning_summary_text.done","item_id":"rs_1","output_index":0,"summary_index":1,"text":"**B** two"}`,
		"", `{"type":"response.output_item.done","output_index":0,"item":`+item+`}`,
		"", rCall(1, "fc_9", "call_9", "f"), "", rArgsDone(1, "fc_9", "{}"), "", rCompleted("completed"))
	_, res := runWire(t, WireResponses, body)
	if res.Message.Reasoning() != "**A** one\n\n**B** two" {
		t.Errorf("reasoning %q: parts set apart, the done's rest added", res.Message.Reasoning())
	}
	n := res.Message.Native
	if n == nil || n.Wire != WireResponses || len(n.Items) != 1 || string(n.Items[0]) != item || n.ItemIDs["call_9"] != "fc_9" {
		t.Fatalf("native %+v", n)
	}
	if u := res.Usage; u == nil || *u != (Usage{PromptTokens: 7, CompletionTokens: 3, TotalTokens: 10}) {
		t.Errorf("usage %+v", u)
	}
}

func TestNativeAnswers(t *testing.T) {
	tests := []struct {
		name, body string
		want       Result
		err        string
	}{
		{
			name: "an Anthropic message with thinking and a tool call",
			body: `{"type":"message","content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"Let me."},` +
				`{"type":"tool_use","id":"t1","name":"f","input":{"a": 1}}],"stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}}`,
			want: Result{Message: Message{Role: "assistant", Parts: ReplyParts("hm", "Let me.", []ToolCall{{Index: 0, ID: "t1", Name: "f", Arguments: `{"a": 1}`}}),
				Native: &NativeReasoning{Wire: WireAnthropic, Items: []json.RawMessage{json.RawMessage(`{"signature":"s","thinking":"hm","type":"thinking"}`)}}},
				FinishReason: "tool_calls", FinishSaid: "stop_reason tool_use", Usage: &Usage{PromptTokens: 3, CompletionTokens: 4, TotalTokens: 7}, Outcome: OutcomeComplete},
		},
		{
			name: "a Responses response with a function call",
			body: `{"object":"response","status":"completed","output":[{"type":"function_call","id":"fc","call_id":"c","name":"f","arguments":"{}"},` +
				`{"type":"message","id":"m","content":[{"type":"output_text","text":"ok"}]}],"usage":{"input_tokens":1,"output_tokens":2,"total_tokens":3}}`,
			want: Result{Message: Message{Role: "assistant", Parts: ReplyParts("", "ok", []ToolCall{{Index: 0, ID: "c", Name: "f", Arguments: `{}`}}),
				Native: &NativeReasoning{Wire: WireResponses, Items: []json.RawMessage{}, ItemIDs: map[string]string{"c": "fc"}}},
				FinishReason: "tool_calls", Usage: &Usage{PromptTokens: 1, CompletionTokens: 2, TotalTokens: 3}, Outcome: OutcomeComplete},
		},
		{
			name: "a failed response is its error",
			body: `{"object":"response","status":"failed","error":{"code":"x","message":"Quota exceeded"},"output":[]}`,
			err:  "The server sent an error: Quota exceeded",
		},
		{
			name: "a response still in progress is an error",
			body: `{"object":"response","status":"in_progress","output":[]}`,
			err:  "the server answered with a response that has not finished (status in_progress)",
		},
		{
			name: "an Anthropic error object",
			body: `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			err:  "The server sent an error: Overloaded",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, e := DecodeAnswer([]byte(tt.body))
			if tt.err != "" {
				if e == nil || e.Message != tt.err {
					t.Fatalf("error %v, want %q", e, tt.err)
				}
				return
			}
			if e != nil {
				t.Fatal(e)
			}
			if tt.want.Message.Native != nil && len(tt.want.Message.Native.Items) == 0 {
				tt.want.Message.Native.Items = got.Message.Native.Items
			}
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(tt.want)
			if string(gb) != string(wb) {
				t.Errorf("got  %s\nwant %s", gb, wb)
			}
		})
	}
}

func TestSamePartIsTheKeysEquality(t *testing.T) {
	parts := []struct {
		item, kind string
		index      int
	}{{"msg_1", "c", 0}, {"msg_1", "c", 1}, {"msg_1", "c", 10}, {"msg_1", "s", 0}, {"msg_", "1/c", 0}, {"msg_1/c", "", 0}, {"", "c", -1}}
	for _, a := range parts {
		for _, b := range parts {
			key := partKey(a.item, a.kind, a.index)
			if got, want := samePart(key, b.item, b.kind, b.index), key == partKey(b.item, b.kind, b.index); got != want {
				t.Errorf("samePart(%q, %q, %q, %d) = %v", key, b.item, b.kind, b.index, got)
			}
		}
	}
}

// A part's done event adds to what its deltas showed only when those deltas are the start of
// its text: a done text that contradicts them, or a shorter one, adds nothing, whether the
// decoder keeps the reply or leaves it to its caller (then only a length and a hash of each
// part's text stand for it).
func TestAPartsDoneAddsOnlyWhereItsDeltasAreItsStart(t *testing.T) {
	done := func(text string) string {
		return fmt.Sprintf(`{"type":"response.output_text.done","item_id":"m","output_index":0,"content_index":0,"text":%q}`, text)
	}
	for _, tt := range []struct{ name, done, shown string }{
		{"a done that goes on from the deltas adds its rest", "Hello world!", "Hello world!"},
		{"a done that contradicts the deltas adds nothing", "Goodbye world!", "Hello world"},
		{"a done as long, but other, adds nothing", "Hello_world", "Hello world"},
		{"a shorter done adds nothing", "Hello", "Hello world"},
	} {
		body := sseBody("", rText("m", "Hello"), "", rText("m", " world"), "", done(tt.done), "", rCompleted("completed"))
		for _, leave := range []bool{false, true} {
			dec := NewFrameDecoder(WireResponses)
			if leave {
				dec.LeaveText()
			}
			var shown strings.Builder
			for _, f := range sseFrames(body) {
				for _, ev := range dec.Frame(f).Events {
					if ev.Kind == phase.KindText {
						shown.WriteString(ev.Delta)
					}
				}
			}
			if shown.String() != tt.shown {
				t.Errorf("%s (text left to the caller: %v): shown %q, want %q", tt.name, leave, shown.String(), tt.shown)
			}
		}
	}
}
