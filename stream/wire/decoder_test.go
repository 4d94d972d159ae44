package wire

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// run decodes data payloads (a payload "event:NAME\n..." sets the event name) and ends the
// stream with cause.
func run(cause error, payloads ...string) (ups []Update, end Update, res Result) {
	d := NewDecoder()
	for _, p := range payloads {
		f := Frame{Data: p}
		if name, rest, ok := strings.Cut(p, "\n"); ok && strings.HasPrefix(name, "event:") {
			f = Frame{Event: strings.TrimPrefix(name, "event:"), Data: rest}
		}
		ups = append(ups, d.Frame(f))
	}
	end = d.End(cause)
	return ups, end, d.Result()
}

// callLog renders the CallEvents of updates as "n:type:id[:name or delta]".
func callLog(ups ...Update) []string {
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

func eventLog(u Update) []string {
	var out []string
	for _, ev := range u.Events {
		s := ev.Kind.String()
		switch ev.Kind {
		case phase.KindText, phase.KindReasoning:
			s += fmt.Sprintf("(%q)", ev.Delta)
		case phase.KindTool:
			s += "(" + ev.Tool + ")"
		case phase.KindError:
			s += "(" + ev.Error + ")"
		}
		out = append(out, s)
	}
	return out
}

func TestClassify(t *testing.T) {
	tests := []struct {
		name, event, data string
		kind              Kind
		events            []string
	}{
		{"done", "", "[DONE]", KindDone, []string{"done"}},
		{"done with spaces", "", " [DONE] ", KindDone, []string{"done"}},
		{"event error", "error", `{"error":{"message":"boom"}}`, KindError, []string{"error(The server sent an error: boom)"}},
		{"event error, not JSON", "error", `upstream died`, KindError, []string{"error(The server sent an error: upstream died)"}},
		{"top-level error object", "", `{"error":{"code":400,"message":"Token limit reached"}}`, KindError, []string{"error(The server sent an error: Token limit reached)"}},
		{"error null is no error", "", `{"error":null,"choices":[{"delta":{"content":"a"}}]}`, KindText, []string{`text("a")`}},
		{"not JSON", "", `hello`, KindMalformed, nil},
		{"cut JSON", "", `{"choices":[{"delta":{"content":"he`, KindMalformed, nil},
		{"JSON but not an object", "", `[1,2]`, KindMalformed, nil},
		{"no choices", "", `{"choices":[],"prompt_filter_results":[]}`, KindIgnore, nil},
		{"role only", "", delta(`{"role":"assistant"}`), KindIgnore, nil},
		{"content null", "", delta(`{"role":"assistant","content":null}`), KindIgnore, nil},
		{"empty content moves the phase", "", delta(`{"content":""}`), KindText, []string{`text("")`}},
		{"content", "", delta(`{"content":"Hi"}`), KindText, []string{`text("Hi")`}},
		{"content with escapes", "", delta(`{"content":"a\n\"b\"\u00e9"}`), KindText, []string{`text("a\n\"b\"é")`}},
		{"content of another type", "", delta(`{"content":{"x":1}}`), KindIgnore, nil},
		{"reasoning_content only is text", "", delta(`{"content":null,"reasoning_content":"hm"}`), KindText, []string{`reasoning("hm")`}},
		{"reasoning only is text", "", delta(`{"reasoning":"hm","channel":"analysis"}`), KindText, []string{`reasoning("hm")`}},
		{"reasoning then content", "", delta(`{"content":"","reasoning_content":"r"}`), KindText, []string{`reasoning("r")`, `text("")`}},
		{"content array", "", delta(`{"content":[{"type":"thinking","thinking":[{"type":"text","text":"t"}]},{"type":"text","text":"x"}]}`), KindText, []string{`reasoning("t")`, `text("x")`}},
		{"empty thinking block", "", delta(`{"content":[{"type":"thinking","thinking":[]}]}`), KindText, []string{`reasoning("")`}},
		{"content then tool in one chunk", "", delta(`{"content":"ok","tool_calls":[{"index":0,"id":"c","function":{"name":"f","arguments":""}}]}`), KindTool, []string{`text("ok")`, "tool(f)"}},
		{"empty tool list is not a tool frame", "", delta(`{"content":"x","tool_calls":[]}`), KindText, []string{`text("x")`}},
		{"tool_calls null", "", delta(`{"content":null,"tool_calls":null}`), KindIgnore, nil},
		{"tool fragment before its name", "", tool(0, "", "", `"{"`), KindTool, []string{"tool()"}},
		{"finish only", "", finishChunk("stop"), KindIgnore, nil},
		{"usage only", "", `{"choices":[],"usage":{"prompt_tokens":1}}`, KindIgnore, nil},
		{"choice 1 is ignored", "", `{"choices":[{"index":1,"delta":{"content":"x"}}]}`, KindIgnore, nil},
		{"choice 0 after choice 1", "", `{"choices":[{"index":1,"delta":{"content":"x"}},{"index":0,"delta":{"content":"y"}}]}`, KindText, []string{`text("y")`}},
		{"wrong type elsewhere does not lose the chunk", "", `{"choices":[{"index":0,"delta":{"content":"a"}}],"usage":"n/a"}`, KindText, []string{`text("a")`}},
		{"anthropic by event name", "message_start", `{"type":"message_start","message":{}}`, KindError, []string{"error(" + mustUnsupported() + ")"}},
		{"anthropic by type", "", `{"type":"message_start","message":{}}`, KindError, []string{"error(" + mustUnsupported() + ")"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := NewDecoder().Frame(Frame{Event: tt.event, Data: tt.data})
			if u.Kind != tt.kind {
				t.Errorf("kind = %q, want %q", u.Kind, tt.kind)
			}
			if got := eventLog(u); !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events = %q, want %q", got, tt.events)
			}
			if u.N != 1 || u.Frame.Data != tt.data {
				t.Errorf("update does not carry frame 1: %+v", u)
			}
		})
	}
}

func mustUnsupported() string {
	_, end, res := run(nil, `{"type":"message_start"}`)
	_ = end
	return res.Err.Message
}

func TestMalformedIsCountedAndNeverMovesThePhase(t *testing.T) {
	ups, end, res := run(nil, delta(`{"content":"a"}`), `not json`, `{"choices":`, finishChunk("stop"), "[DONE]")
	if res.Malformed != 2 || res.Outcome != OutcomeComplete || res.Message.Text() != "a" {
		t.Fatalf("result = %+v", res)
	}
	for _, u := range ups[1:3] {
		if u.Kind != KindMalformed || len(u.Events) != 0 || len(u.Calls) != 0 {
			t.Errorf("malformed frame %d yielded %+v", u.N, u)
		}
	}
	if end.Kind != KindDone || len(end.Events) != 0 {
		t.Errorf("end after [DONE] = %+v, want done with no events", end)
	}
}

func TestOutcomes(t *testing.T) {
	netErr := &Error{Message: "The connection to h broke mid-stream: reset", Cause: errors.New("reset")}
	text := delta(`{"content":"a"}`)
	errFrame := "event:error\n" + `{"error":{"message":"bad"}}`
	const msgNoEvents = "The answer has no server-sent events (no data: lines), so it is not a Chat Completions stream."
	tests := []struct {
		name     string
		cause    error
		payloads []string
		outcome  Outcome
		err      string   // Result.Err's message
		endKind  Kind     // the End update's kind
		endEvent []string // the End update's events
		phase    phase.Phase
	}{
		{"[DONE]", nil, []string{text, "[DONE]"}, OutcomeComplete, "", KindDone, nil, phase.Complete},
		{"finish_reason without [DONE] (cerebras, writer)", nil, []string{text, finishChunk("stop")}, OutcomeComplete, "", KindDone, []string{"done"}, phase.Complete},
		{"neither (evroc)", nil, []string{text}, OutcomeTruncated, MsgTruncated, KindError, []string{"error(" + MsgTruncated + ")"}, phase.Error},
		{"empty stream: not a stream at all", nil, nil, OutcomeError, msgNoEvents, KindError, []string{"error(" + msgNoEvents + ")"}, phase.Error},
		{"cancel", context.Canceled, []string{text}, OutcomeStopped, "", KindIgnore, nil, phase.StreamingText},
		{"cancel, wrapped", fmt.Errorf("x: %w", context.Canceled), []string{text}, OutcomeStopped, "", KindIgnore, nil, phase.StreamingText},
		{"cancel after finish is still a stop", context.Canceled, []string{text, finishChunk("stop")}, OutcomeStopped, "", KindIgnore, nil, phase.StreamingText},
		{"network error", netErr, []string{text}, OutcomeError, netErr.Message, KindError, []string{"error(" + netErr.Message + ")"}, phase.Error},
		{"network error after finish_reason", netErr, []string{text, finishChunk("stop")}, OutcomeComplete, "", KindDone, []string{"done"}, phase.Complete},
		{"plain error cause", errors.New("boom"), nil, OutcomeError, "The stream failed: boom", KindError, []string{"error(The stream failed: boom)"}, phase.Error},
		{"event: error, then EOF (groq)", nil, []string{text, errFrame}, OutcomeError, "The server sent an error: bad", KindError, nil, phase.Error},
		{"finish, error object, [DONE] (openrouter minimax)", nil, []string{finishChunk("length"), `{"error":{"code":400,"message":"Token limit reached"},"choices":[{"index":0,"delta":{"content":""}}]}`, "[DONE]"}, OutcomeError, "The server sent an error: Token limit reached", KindError, nil, phase.Error},
		{"error, then cancel", context.Canceled, []string{errFrame}, OutcomeError, "The server sent an error: bad", KindError, nil, phase.Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, end, res := run(tt.cause, tt.payloads...)
			if res.Outcome != tt.outcome {
				t.Errorf("outcome = %q, want %q", res.Outcome, tt.outcome)
			}
			gotErr := ""
			if res.Err != nil {
				gotErr = res.Err.Message
			}
			if gotErr != tt.err {
				t.Errorf("error = %q, want %q", gotErr, tt.err)
			}
			if end.N != 0 || end.Kind != tt.endKind || !reflect.DeepEqual(eventLog(end), tt.endEvent) {
				t.Errorf("end = n %d kind %q events %q, want kind %q events %q", end.N, end.Kind, eventLog(end), tt.endKind, tt.endEvent)
			}
			s := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
			for _, u := range append(ups, end) {
				for _, ev := range u.Events {
					s = phase.Reduce(s, ev)
				}
			}
			if s.Phase != tt.phase {
				t.Errorf("phase = %v, want %v", s.Phase, tt.phase)
			}
		})
	}
}

func TestEndIsFinal(t *testing.T) {
	d := NewDecoder()
	d.Frame(Frame{Data: delta(`{"content":"a"}`)})
	first := d.End(nil)
	again := d.End(errors.New("late"))
	late := d.Frame(Frame{Data: delta(`{"content":"b"}`)})
	if first.Kind != KindError || again.Kind != KindError || len(again.Events) != 0 {
		t.Errorf("first %+v, again %+v", first, again)
	}
	if late.Kind != KindIgnore || late.N != 2 || len(late.Events) != 0 {
		t.Errorf("frame after the end = %+v", late)
	}
	if r := d.Result(); r.Message.Text() != "a" || r.Outcome != OutcomeTruncated {
		t.Errorf("result = %+v", r)
	}
}

func TestFinishAndUsageAreLastSeen(t *testing.T) {
	_, _, res := run(nil,
		`{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"length"}]}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":null}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
		`{"choices":[],"usage":null,"moderation":{}}`,
		"[DONE]")
	if res.FinishReason != "stop" {
		t.Errorf("finish = %q, want the last non-null, stop", res.FinishReason)
	}
	if want := (Usage{PromptTokens: 5, CompletionTokens: 2, TotalTokens: 7}); res.Usage == nil || *res.Usage != want {
		t.Errorf("usage = %+v, want %+v (the last seen, not summed, not erased by null)", res.Usage, want)
	}
}

func TestUsageDetailsCountCachedAndReasoningTokens(t *testing.T) {
	for _, tc := range []struct{ name, usage string }{
		{"details", `{"prompt_tokens":50,"completion_tokens":30,"total_tokens":80,"prompt_tokens_details":{"cached_tokens":40},"completion_tokens_details":{"reasoning_tokens":20}}`},
		{"deepseek's cache hits", `{"prompt_tokens":50,"completion_tokens":30,"total_tokens":80,"prompt_cache_hit_tokens":40,"prompt_cache_miss_tokens":10,"completion_tokens_details":{"reasoning_tokens":20}}`},
	} {
		_, _, res := run(nil, `{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}],"usage":`+tc.usage+`}`, "[DONE]")
		want := Usage{PromptTokens: 50, CompletionTokens: 30, TotalTokens: 80, CachedTokens: 40, ReasoningTokens: 20}
		if res.Usage == nil || *res.Usage != want {
			t.Errorf("%s: usage = %+v, want %+v", tc.name, res.Usage, want)
		}
	}
}

func TestReasoningIsKeptApart(t *testing.T) {
	_, _, res := run(nil,
		delta(`{"content":null,"reasoning_content":""}`), delta(`{"content":null,"reasoning_content":"think"}`),
		delta(`{"reasoning":" more"}`), delta(`{"content":[{"type":"thinking","thinking":"!"},{"type":"text","text":"An"}]}`),
		delta(`{"content":"swer"}`), "[DONE]")
	if res.Message.Reasoning() != "think more!" || res.Message.Text() != "Answer" {
		t.Errorf("reasoning %q, content %q", res.Message.Reasoning(), res.Message.Text())
	}
}
