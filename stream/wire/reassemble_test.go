package wire

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/phasechat/phasechat/phase"
)

// callOrderError returns a description of the first CallEvent that breaks the machine's
// order: per id, one start first, deltas only while open, at most one ready or error, nothing
// after it.
func callOrderError(ups ...Update) error {
	state := map[string]string{} // "" unseen, "open", "final"
	for _, u := range ups {
		for _, c := range u.Calls {
			switch s := state[c.ID]; {
			case c.Type == phase.CallStart && s == "":
				state[c.ID] = "open"
			case c.Type == phase.CallDelta && s == "open":
			case (c.Type == phase.CallReady || c.Type == phase.CallInterrupt) && s == "open":
				state[c.ID] = "final"
			default:
				return fmt.Errorf("frame %d: %s for %q while %q", u.N, c.Type, c.ID, s)
			}
		}
	}
	return nil
}

// machine applies every CallEvent to a fresh phase.ToolCalls.
func machine(ups ...Update) *phase.ToolCalls {
	m := phase.NewToolCalls()
	for _, u := range ups {
		for _, c := range u.Calls {
			m.Apply(c)
		}
	}
	return m
}

func TestReassembly(t *testing.T) {
	tests := []struct {
		name     string
		payloads []string
		calls    []ToolCall // Result tool calls
		log      []string   // CallEvents as n:type:id[:name|:delta]; the End update is n 0
	}{
		{
			name: "two calls by index: the first is ready when the second starts, the last at finish",
			payloads: []string{
				tool(0, "c1", "add", `""`), tool(0, "", "", `"{\"a\":"`), tool(0, "", "", `"2}"`),
				tool(1, "c2", "mul", `""`), tool(1, "", "", `"{}"`), finishChunk("tool_calls"), "[DONE]",
			},
			calls: []ToolCall{{Index: 0, ID: "c1", Name: "add", Arguments: `{"a":2}`}, {Index: 1, ID: "c2", Name: "mul", Arguments: `{}`}},
			log: []string{"1:start:c1:add", `2:delta:c1:{"a":`, "3:delta:c1:2}", "4:ready:c1",
				"4:start:c2:mul", "5:delta:c2:{}", "6:ready:c2"},
		},
		{
			name:     "a closed call waits for a later signal: content",
			payloads: []string{tool(0, "c1", "f", `"{\"q\":\"x\"}"`), delta(`{"content":""}`), delta(`{"content":"done"}`)},
			calls:    []ToolCall{{Index: 0, ID: "c1", Name: "f", Arguments: `{"q":"x"}`}},
			log:      []string{"1:start:c1:f", `1:delta:c1:{"q":"x"}`, "3:ready:c1"},
		},
		{
			name:     "a parsable prefix is not ready: a number may continue",
			payloads: []string{tool(0, "c1", "f", `"12"`), tool(0, "", "", `"3"`), finishChunk("tool_calls")},
			calls:    []ToolCall{{Index: 0, ID: "c1", Name: "f", Arguments: `123`}},
			log:      []string{"1:start:c1:f", "1:delta:c1:12", "2:delta:c1:3", "3:ready:c1"},
		},
		{
			name:     "an open call is not readied by another call's fragment",
			payloads: []string{tool(0, "c1", "f", `"{\"a\":"`), tool(1, "c2", "g", `"{}"`), tool(0, "", "", `"1}"`), finishChunk("tool_calls")},
			calls:    []ToolCall{{Index: 0, ID: "c1", Name: "f", Arguments: `{"a":1}`}, {Index: 1, ID: "c2", Name: "g", Arguments: `{}`}},
			log:      []string{"1:start:c1:f", `1:delta:c1:{"a":`, "2:start:c2:g", "2:delta:c2:{}", "3:ready:c2", "3:delta:c1:1}", "4:ready:c1"},
		},
		{
			name:     "interleaved headers with blank arguments are not closed",
			payloads: []string{tool(0, "c1", "f", `""`), tool(1, "c2", "g", `""`), tool(0, "", "", `"{}"`), tool(1, "", "", `"[1]"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "c1", Name: "f", Arguments: `{}`}, {Index: 1, ID: "c2", Name: "g", Arguments: `[1]`}},
			log:      []string{"1:start:c1:f", "2:start:c2:g", "3:delta:c1:{}", "4:ready:c1", "4:delta:c2:[1]", "5:ready:c2"},
		},
		{
			name:     "whole call and finish in one chunk, no index, no id (mistral)",
			payloads: []string{`{"choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"function":{"name":"W","arguments":"{\"l\": 1}"}}]},"finish_reason":"tool_calls"}]}`},
			calls:    []ToolCall{{Index: 0, ID: "call_0", Name: "W", Arguments: `{"l": 1}`}},
			log:      []string{"1:start:call_0:W", `1:delta:call_0:{"l": 1}`, "1:ready:call_0"},
		},
		{
			name:     "two whole calls without index or id in one chunk",
			payloads: []string{delta(`{"tool_calls":[{"function":{"name":"a","arguments":"{}"}},{"function":{"name":"b","arguments":"{\"x\":1}"}}]}`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "call_0", Name: "a", Arguments: `{}`}, {Index: 1, ID: "call_1", Name: "b", Arguments: `{"x":1}`}},
			log:      []string{"1:start:call_0:a", "1:delta:call_0:{}", "1:ready:call_0", "2:start:call_1:b", `2:delta:call_1:{"x":1}`, "2:ready:call_1"},
		},
		{
			name:     "missing index: the current call, until a different id starts a new one",
			payloads: []string{tool(-1, "x", "f", `"{\"a\""`), tool(-1, "", "", `":1}"`), tool(-1, "y", "g", `"{}"`), tool(-1, "y", "", `""`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{"a":1}`}, {Index: 1, ID: "y", Name: "g", Arguments: `{}`}},
			log:      []string{"1:start:x:f", `1:delta:x:{"a"`, "2:delta:x::1}", "3:ready:x", "3:start:y:g", "3:delta:y:{}", "5:ready:y"},
		},
		{
			name:     "index -1 means missing",
			payloads: []string{tool(0, "x", "f", `"{"`), delta(`{"tool_calls":[{"index":-1,"function":{"arguments":"}"}}]}`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{}`}},
			log:      []string{"1:start:x:f", "1:delta:x:{", "2:delta:x:}", "3:ready:x"},
		},
		{
			name:     "repeated names are not concatenated; a repeated id changes nothing",
			payloads: []string{tool(0, "x", "get", `"{\"a\":"`), tool(0, "x", "get", `"1}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "get", Arguments: `{"a":1}`}},
			log:      []string{"1:start:x:get", `1:delta:x:{"a":`, "2:delta:x:1}", "3:ready:x"},
		},
		{
			name:     "arguments before the name are buffered, then start and one delta",
			payloads: []string{tool(0, "", "", `"{\"a\":"`), tool(0, "", "", `"1"`), tool(0, "x", "f", `"}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{"a":1}`}},
			log:      []string{`3:start:x:f`, `3:delta:x:{"a":1}`, "4:ready:x"},
		},
		{
			name:     "no id ever: call_<index>, started when it becomes ready",
			payloads: []string{tool(3, "", "f", `"{}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 3, ID: "call_3", Name: "f", Arguments: `{}`}},
			log:      []string{"2:start:call_3:f", "2:delta:call_3:{}", "2:ready:call_3"},
		},
		{
			name:     "arguments as a JSON object are a whole value; null and empty add nothing",
			payloads: []string{tool(0, "x", "f", `null`), tool(0, "", "", `""`), tool(0, "", "", `{"a": [1, 2]}`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{"a": [1, 2]}`}},
			log:      []string{"1:start:x:f", `3:delta:x:{"a": [1, 2]}`, "4:ready:x"},
		},
		{
			name:     "explicit nulls everywhere (writer)",
			payloads: []string{delta(`{"content":null,"tool_calls":[{"index":0,"id":"x","type":"function","function":{"name":"f","arguments":null}}]}`), delta(`{"content":null,"tool_calls":[{"index":0,"id":null,"type":null,"function":{"name":null,"arguments":"{}"}}]}`), delta(`{"content":null,"tool_calls":null}`), finishChunk("tool_calls")},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{}`}},
			log:      []string{"1:start:x:f", "2:delta:x:{}", "4:ready:x"},
		},
		{
			name:     "an index reused with a different id is a new call",
			payloads: []string{tool(0, "a", "f", `"{}"`), tool(0, "b", "g", `"{}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "a", Name: "f", Arguments: `{}`}, {Index: 1, ID: "b", Name: "g", Arguments: `{}`}},
			log:      []string{"1:start:a:f", "1:delta:a:{}", "2:ready:a", "2:start:b:g", "2:delta:b:{}", "3:ready:b"},
		},
		{
			name:     "duplicate ids on different indexes stay apart",
			payloads: []string{tool(0, "dup", "f", `"{}"`), tool(1, "dup", "g", `"{}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "dup", Name: "f", Arguments: `{}`}, {Index: 1, ID: "dup_2", Name: "g", Arguments: `{}`}},
			log:      []string{"1:start:dup:f", "1:delta:dup:{}", "2:ready:dup", "2:start:dup_2:g", "2:delta:dup_2:{}", "3:ready:dup_2"},
		},
		{
			name:     "invalid arguments are ready at the next signal (the machine reports the error)",
			payloads: []string{tool(0, "x", "f", `"{]"`), tool(1, "y", "g", `"{"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{]`}, {Index: 1, ID: "y", Name: "g", Arguments: `{`}},
			log:      []string{"1:start:x:f", "1:delta:x:{]", "2:ready:x", "2:start:y:g", "2:delta:y:{", "3:ready:y"},
		},
		{
			name:     "calls come out in index order",
			payloads: []string{tool(1, "b", "g", `"{}"`), tool(0, "a", "f", `"{}"`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "a", Name: "f", Arguments: `{}`}, {Index: 1, ID: "b", Name: "g", Arguments: `{}`}},
			log:      []string{"1:start:b:g", "1:delta:b:{}", "2:ready:b", "2:start:a:f", "2:delta:a:{}", "3:ready:a"},
		},
		{
			name:     "text after ready is kept in the reply but not sent to the machine",
			payloads: []string{tool(0, "x", "f", `"{}"`), delta(`{"content":"ok"}`), tool(0, "", "", `" "`), "[DONE]"},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{} `}},
			log:      []string{"1:start:x:f", "1:delta:x:{}", "2:ready:x"},
		},
		{
			name:     "truncated: a started call fails, a call without a name never started",
			payloads: []string{tool(0, "x", "f", `"{\"a\":1}"`), tool(1, "y", "g", `"{"`), tool(2, "", "", `"{"`)},
			calls:    []ToolCall{{Index: 0, ID: "x", Name: "f", Arguments: `{"a":1}`}, {Index: 1, ID: "y", Name: "g", Arguments: `{`}, {Index: 2, ID: "call_2", Name: "", Arguments: `{`}},
			log: []string{"1:start:x:f", `1:delta:x:{"a":1}`, "2:ready:x", "2:start:y:g", "2:delta:y:{",
				"0:interrupt:y"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, end, res := run(nil, tt.payloads...)
			all := append(ups, end)
			if !reflect.DeepEqual(res.Message.Calls(), tt.calls) {
				t.Errorf("calls = %+v\nwant    %+v", res.Message.Calls(), tt.calls)
			}
			if got := callLog(all...); !reflect.DeepEqual(got, tt.log) {
				t.Errorf("call events = %q\nwant          %q", got, tt.log)
			}
			if err := callOrderError(all...); err != nil {
				t.Error(err)
			}
		})
	}
}

// The machine, fed the CallEvents, ends with the same arguments as the reply, and judges
// them: valid ones run, invalid ones are an error.
func TestMachineAgreesWithResult(t *testing.T) {
	ups, end, res := run(nil,
		tool(0, "x", "f", `"{\"a\":"`), tool(0, "", "", `"1}"`), tool(1, "y", "g", `"not json"`),
		delta(`{"content":"after"}`), finishChunk("tool_calls"), "[DONE]")
	if res.Outcome != OutcomeComplete {
		t.Fatalf("outcome %q", res.Outcome)
	}
	m := machine(append(ups, end)...)
	x, _ := m.Get("x")
	y, _ := m.Get("y")
	if x.Status != phase.CallArgsReady || x.ArgsText != res.Message.Calls()[0].Arguments {
		t.Errorf("x = %+v", x)
	}
	if y.Status != phase.CallError || !strings.HasPrefix(y.Result.Output, phase.ErrInvalidArgs.Error()+": ") {
		t.Errorf("y = %+v, want an invalid-arguments error", y)
	}
}

func TestStoppedLeavesCallsPending(t *testing.T) {
	ups, end, res := run(context.Canceled, tool(0, "x", "f", `"{}"`))
	if res.Outcome != OutcomeStopped || res.Err != nil || len(end.Events) != 0 || len(end.Calls) != 0 {
		t.Fatalf("end = %+v, result = %+v", end, res)
	}
	if c, _ := machine(append(ups, end)...).Get("x"); c.Status != phase.CallPending {
		t.Errorf("x = %+v, want pending (never dispatched)", c)
	}
}
