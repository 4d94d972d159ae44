package wire

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// runWire decodes body as format as (detected when empty) the way the stream package's feed
// does (see sseFrames), and checks the invariants every stream keeps.
func runWire(t *testing.T, as Wire, body string) ([]Update, Result) {
	t.Helper()
	ups, res := decodeBody(as, body)
	checkBlockInvariants(t, ups, res)
	return ups, res
}

// blockCallLog is every CallEvent as n:type:id (with :name for a start and :delta for a delta).
func blockCallLog(ups []Update) []string {
	var out []string
	for _, u := range ups {
		for _, c := range u.Calls {
			s := fmt.Sprintf("%d:%s:%s", u.N, c.Type, c.ID)
			switch c.Type {
			case phase.CallStart:
				s += ":" + c.Name
			case phase.CallDelta:
				s += ":" + c.ArgsTextDelta
			}
			out = append(out, s)
		}
	}
	return out
}

// checkBlockInvariants holds for every stream of any format: one End update, last; content
// and reasoning are their deltas; the CallEvents keep the machine's order, each call ready or
// failed at most once; the machine's arguments are the reply's; ids are unique; the phase
// agrees with the outcome.
func checkBlockInvariants(t *testing.T, ups []Update, res Result) {
	t.Helper()
	if len(ups) == 0 || ups[len(ups)-1].N != 0 {
		t.Fatalf("no End update last")
	}
	var content, reasoning strings.Builder
	for i, u := range ups {
		if u.N == 0 && i != len(ups)-1 {
			t.Fatalf("End update before the last")
		}
		for _, ev := range u.Events {
			switch ev.Kind {
			case phase.KindText:
				content.WriteString(ev.Delta)
			case phase.KindReasoning:
				reasoning.WriteString(ev.Delta)
			}
		}
	}
	if content.String() != res.Message.Text() || reasoning.String() != res.Message.Reasoning() {
		t.Fatalf("content %q / reasoning %q are not their deltas %q / %q", res.Message.Text(), res.Message.Reasoning(), content.String(), reasoning.String())
	}
	if err := callOrderError(ups...); err != nil {
		t.Fatal(err)
	}
	byID := map[string]ToolCall{}
	for _, tc := range res.Message.Calls() {
		if _, dup := byID[tc.ID]; dup {
			t.Fatalf("two calls with id %q", tc.ID)
		}
		byID[tc.ID] = tc
	}
	st, m := fold(ups)
	for _, c := range m.List() {
		if byID[c.ID].Arguments != c.ArgsText && !strings.HasPrefix(byID[c.ID].Arguments, c.ArgsText) {
			t.Fatalf("call %s: the machine saw %q, the reply has %q", c.ID, c.ArgsText, byID[c.ID].Arguments)
		}
	}
	switch res.Outcome {
	case OutcomeComplete, OutcomeError, OutcomeTruncated, OutcomeStopped:
	default:
		t.Fatalf("outcome %q", res.Outcome)
	}
	want := map[Outcome]phase.Phase{OutcomeComplete: phase.Complete, OutcomeError: phase.Error, OutcomeTruncated: phase.Error}
	if st.Phase != want[res.Outcome] {
		t.Fatalf("phase %v, outcome %q", st.Phase, res.Outcome)
	}
	if (res.Err != nil) != (res.Outcome == OutcomeError || res.Outcome == OutcomeTruncated) {
		t.Fatalf("outcome %q with error %v", res.Outcome, res.Err)
	}
}

func TestAnthropicDecoder(t *testing.T) {
	tool := func(i int, id, name string) string {
		return aBlock(i, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%q,"input":{}}`, id, name))
	}
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
			name: "two tool calls, each ready at its own block's stop, before message_stop",
			body: sseBody("message_start", aStart,
				"content_block_start", tool(0, "toolu_a", "add"), "content_block_delta", aArgs(0, ""),
				"content_block_delta", aArgs(0, `{"a":`), "content_block_delta", aArgs(0, `1}`),
				"content_block_stop", aBlockStop(0),
				"content_block_start", tool(1, "toolu_b", "mul"), "content_block_delta", aArgs(1, `{}`),
				"content_block_stop", aBlockStop(1),
				"message_delta", aDeltaTool, "message_stop", aStop),
			log: []string{"2:start:toolu_a:add", "4:delta:toolu_a:{\"a\":", "5:delta:toolu_a:1}", "6:ready:toolu_a",
				"7:start:toolu_b:mul", "8:delta:toolu_b:{}", "9:ready:toolu_b"},
			finish: "tool_calls", outcome: OutcomeComplete,
		},
		{
			name: "interleaved blocks: text, a call, more text; deltas routed by index",
			body: sseBody("", aStart, "", aBlock(0, `{"type":"text","text":""}`), "", aDelta(0, `{"type":"text_delta","text":"Hi "}`),
				"", tool(1, "t1", "f"), "", aArgs(1, `{"q":`), "", aDelta(0, `{"type":"text_delta","text":"there"}`),
				"", aArgs(1, `"x"}`), "", aBlockStop(1), "", aBlockStop(0), "", aDeltaTool, "", aStop),
			log:     []string{"4:start:t1:f", "5:delta:t1:{\"q\":", "7:delta:t1:\"x\"}", "8:ready:t1"},
			content: "Hi there", finish: "tool_calls", outcome: OutcomeComplete,
		},
		{
			name: "the same id twice gets a suffix",
			body: sseBody("", aStart, "", tool(0, "t", "f"), "", aBlockStop(0), "", tool(1, "t", "f"), "", aBlockStop(1), "", aStop),
			log:  []string{"2:start:t:f", "3:delta:t:{}", "3:ready:t", "4:start:t_2:f", "5:delta:t_2:{}", "5:ready:t_2"},
			// The input {} of a block with no argument text is its arguments.
			outcome: OutcomeComplete,
		},
		{
			name: "no message_stop: truncated, the open call fails, the ready one stays",
			body: sseBody("", aStart, "", tool(0, "a", "f"), "", aArgs(0, `{}`), "", aBlockStop(0),
				"", tool(1, "b", "g"), "", aArgs(1, `{"x"`)),
			log:     []string{"2:start:a:f", "3:delta:a:{}", "4:ready:a", "5:start:b:g", "6:delta:b:{\"x\"", "0:interrupt:b"},
			outcome: OutcomeTruncated, err: "The server closed the stream before finishing (no message_stop).",
		},
		{
			name: "overloaded mid-stream: the provider's message, the open call not run",
			body: sseBody("", aStart, "", aBlock(0, `{"type":"text","text":"par"}`), "", tool(1, "a", "f"), "", aArgs(1, `{"x":1}`),
				"error", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			log:     []string{"3:start:a:f", "4:delta:a:{\"x\":1}", "0:interrupt:a"},
			content: "par", outcome: OutcomeError, err: "The server sent an error: Overloaded",
		},
		{
			name:    "an error event without the event line is read by its type",
			body:    sseBody("", aStart, "", `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`),
			outcome: OutcomeError, err: "The server sent an error: Internal server error",
		},
		{
			name: "max_tokens inside a call: finish length, the unfinished call is not run",
			body: sseBody("", aStart, "", tool(0, "a", "f"), "", aArgs(0, `{"path":"x`),
				"", `{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"output_tokens":50}}`, "", aStop),
			log:    []string{"2:start:a:f", "3:delta:a:{\"path\":\"x", "5:interrupt:a"},
			finish: "length", outcome: OutcomeComplete,
		},
		{
			name: "pings, an unknown event and a malformed payload change nothing",
			body: sseBody("ping", `{"type": "ping"}`, "", aStart, "", `{"type":"future_event","x":1}`, "", `not json`,
				"", aBlock(0, `{"type":"text","text":""}`), "", aDelta(0, `{"type":"text_delta","text":"ok"}`),
				"", `{"type":"message_delta","delta":{"stop_reason":"end_turn"}}`, "", aStop),
			content: "ok", finish: "stop", outcome: OutcomeComplete,
		},
		{
			name:    "frames after message_stop are not read",
			body:    sseBody("", aStart, "", aStop, "", aBlock(0, `{"type":"text","text":"late"}`)),
			outcome: OutcomeComplete,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, res := runWire(t, "", tt.body)
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

func TestAnthropicUsageAndThinking(t *testing.T) {
	body := sseBody("", aStart,
		"", aBlock(0, `{"type":"thinking","thinking":"","signature":""}`),
		"", aDelta(0, `{"type":"thinking_delta","thinking":"Let me think."}`),
		"", aDelta(0, `{"type":"signature_delta","signature":"c2ln"}`), "", aBlockStop(0),
		"", aBlock(1, `{"type":"redacted_thinking","data":"ZW5j"}`), "", aBlockStop(1),
		"", aBlock(2, `{"type":"thinking","thinking":"Again.","signature":"czI="}`), "", aBlockStop(2),
		"", aBlock(3, `{"type":"tool_use","id":"t","name":"f","input":{}}`), "", aBlockStop(3),
		"", aDeltaTool, "", aStop)
	_, res := runWire(t, WireAnthropic, body)
	if res.Message.Reasoning() != "Let me think.\n\nAgain." {
		t.Errorf("reasoning %q", res.Message.Reasoning())
	}
	if u := res.Usage; u == nil || *u != (Usage{PromptTokens: 15, CompletionTokens: 20, TotalTokens: 35, CachedTokens: 5}) {
		t.Errorf("usage %+v: input and cache read are the prompt, the cache read counted as cached; output the last reported", u)
	}
	n := res.Message.Native
	if n == nil || n.Wire != WireAnthropic || len(n.Items) != 3 {
		t.Fatalf("native %+v", n)
	}
	want := []string{`{"signature":"c2ln","thinking":"Let me think.","type":"thinking"}`,
		`{"data":"ZW5j","type":"redacted_thinking"}`, `{"signature":"czI=","thinking":"Again.","type":"thinking"}`}
	for i, it := range n.Items {
		if string(it) != want[i] {
			t.Errorf("item %d = %s, want %s", i, it, want[i])
		}
	}
}

func TestDetectWire(t *testing.T) {
	tests := []struct {
		frame Frame
		want  Wire
	}{
		{Frame{Event: "message_start", Data: `{}`}, WireAnthropic},
		{Frame{Data: `{"type":"message_start","message":{}}`}, WireAnthropic},
		{Frame{Event: "ping", Data: `{"type": "ping"}`}, WireAnthropic},
		{Frame{Event: "response.created", Data: `{}`}, WireResponses},
		{Frame{Data: `{"type":"response.created","response":{}}`}, WireResponses},
		{Frame{Data: `{"choices":[{"delta":{"content":"x"}}]}`}, WireChat},
		{Frame{Data: `{"type":"message_start","choices":[]}`}, WireChat},
		{Frame{Data: `[DONE]`}, WireChat},
		{Frame{Event: "error", Data: `{"type":"error","error":{"message":"x"}}`}, WireChat},
		{Frame{Data: `{"type":`}, WireChat},
	}
	for _, tt := range tests {
		if got := DetectWire(tt.frame); got != tt.want {
			t.Errorf("DetectWire(%+v) = %q, want %q", tt.frame, got, tt.want)
		}
	}
}

func TestParseWire(t *testing.T) {
	for in, want := range map[string]Wire{"chat": WireChat, "openai": WireChat, "": WireChat, "anthropic": WireAnthropic,
		"Responses": WireResponses, "openai-responses": WireResponses} {
		if got, err := ParseWire(in); err != nil || got != want {
			t.Errorf("ParseWire(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseWire("gemini"); err == nil || !strings.Contains(err.Error(), "chat, anthropic or responses") {
		t.Errorf("ParseWire(gemini): %v", err)
	}
}

func TestAnthropicStreamReadAsChat(t *testing.T) {
	_, res := runWire(t, WireChat, sseBody("message_start", aStart, "", aStop))
	if res.Outcome != OutcomeError || !strings.Contains(res.Err.Message, "--wire anthropic") {
		t.Errorf("%q: %v", res.Outcome, res.Err)
	}
}
