package phase

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func start(id, name string) CallEvent { return CallEvent{Type: CallStart, ID: id, Name: name} }
func delta(id, text string) CallEvent { return CallEvent{Type: CallDelta, ID: id, ArgsTextDelta: text} }
func ready(id string) CallEvent       { return CallEvent{Type: CallReady, ID: id} }
func run(id string) CallEvent         { return CallEvent{Type: CallRun, ID: id} }
func result(id, out string) CallEvent {
	return CallEvent{Type: CallResult, ID: id, Result: ToolResult{Output: out}}
}
func failed(id, out string) CallEvent {
	return CallEvent{Type: CallResult, ID: id, Result: ToolResult{Output: out, IsError: true}}
}
func interrupt(id string, why Cutoff) CallEvent {
	return CallEvent{Type: CallInterrupt, ID: id, Why: Interruption{Why: why}}
}

func apply(evs ...CallEvent) *ToolCalls {
	m := NewToolCalls()
	for _, ev := range evs {
		m.Apply(ev)
	}
	return m
}

func mustGet(t *testing.T, m *ToolCalls, id string) ToolCall {
	t.Helper()
	c, ok := m.Get(id)
	if !ok {
		t.Fatalf("call %q not found", id)
	}
	return c
}

// A search call: start, two argument deltas, ready.
func TestExampleSearch(t *testing.T) {
	m := apply(start("t1", "search"), delta("t1", `{"q":`), delta("t1", `"hi"}`), ready("t1"))
	got := mustGet(t, m, "t1")
	want := ToolCall{ID: "t1", Name: "search", ArgsText: `{"q":"hi"}`, Args: Args{Object: map[string]any{"q": "hi"}, JSON: `{"q":"hi"}`}, Status: CallArgsReady}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// A result while pending is too early and ignored.
func TestExampleResultWhilePending(t *testing.T) {
	m := apply(start("t2", "now"), result("t2", "42"))
	if got := mustGet(t, m, "t2"); got.Status != CallPending || got.Result != (ToolResult{}) {
		t.Fatalf("result while pending: got %+v, want still pending with no result", got)
	}
}

// Each guard of the state machine (docs/architecture.md, Tool calls), one row each: the events, the call's expected state afterwards.
func TestGuards(t *testing.T) {
	parseErr := func(c ToolCall) bool {
		return c.Result.IsError && strings.HasPrefix(c.Result.Output, ErrInvalidArgs.Error()+": ")
	}
	cases := []struct {
		name   string
		events []CallEvent
		id     string
		check  func(ToolCall) bool
		absent bool
	}{
		{"start makes a pending call", []CallEvent{start("a", "now")}, "a",
			func(c ToolCall) bool { return c.Status == CallPending && c.Name == "now" && c.ArgsText == "" }, false},
		{"start without id is ignored", []CallEvent{start("", "now")}, "", nil, true},
		{"unknown id: delta is ignored", []CallEvent{delta("ghost", "{}")}, "ghost", nil, true},
		{"unknown id: ready, run, result, interrupt are ignored", []CallEvent{ready("g"), run("g"), result("g", "1"), interrupt("g", CutByUser)}, "g", nil, true},
		{"duplicate start keeps the first name and the text", []CallEvent{start("a", "now"), delta("a", "{"), start("a", "other")}, "a",
			func(c ToolCall) bool { return c.Name == "now" && c.ArgsText == "{" && c.Status == CallPending }, false},
		{"delta appends while pending", []CallEvent{start("a", "x"), delta("a", `{"k"`), delta("a", `:1}`)}, "a",
			func(c ToolCall) bool { return c.ArgsText == `{"k":1}` }, false},
		{"delta after ready is ignored", []CallEvent{start("a", "x"), delta("a", "{}"), ready("a"), delta("a", "junk")}, "a",
			func(c ToolCall) bool { return c.ArgsText == "{}" && c.Status == CallArgsReady }, false},
		{"ready parses", []CallEvent{start("a", "x"), delta("a", `{"n":12345678901234567890}`), ready("a")}, "a",
			func(c ToolCall) bool {
				return c.Status == CallArgsReady && reflect.DeepEqual(c.Args.Object, map[string]any{"n": json.Number("12345678901234567890")})
			}, false},
		{"blank arguments mean {}", []CallEvent{start("a", "x"), delta("a", " \n\t"), ready("a")}, "a",
			func(c ToolCall) bool {
				return c.Status == CallArgsReady && reflect.DeepEqual(c.Args.Object, map[string]any{})
			}, false},
		{"no arguments at all mean {}", []CallEvent{start("a", "x"), ready("a")}, "a",
			func(c ToolCall) bool {
				return c.Status == CallArgsReady && reflect.DeepEqual(c.Args.Object, map[string]any{})
			}, false},
		{"parse failure on ready is an error", []CallEvent{start("a", "x"), delta("a", `{"q":`), ready("a")}, "a",
			func(c ToolCall) bool { return c.Status == CallError && parseErr(c) && c.Args.Object == nil }, false},
		{"trailing data after the value is a parse failure", []CallEvent{start("a", "x"), delta("a", `{} {}`), ready("a")}, "a",
			func(c ToolCall) bool { return c.Status == CallError && parseErr(c) }, false},
		{"ready twice parses once", []CallEvent{start("a", "x"), delta("a", `[1]`), ready("a"), ready("a")}, "a",
			func(c ToolCall) bool {
				return c.Status == CallArgsReady && reflect.DeepEqual(c.Args.Object, map[string]any{"value": []any{json.Number("1")}})
			}, false},
		{"result while pending is ignored", []CallEvent{start("a", "x"), result("a", "r")}, "a",
			func(c ToolCall) bool { return c.Status == CallPending && c.Result == ToolResult{} }, false},
		{"result while ready is ignored: it never ran", []CallEvent{start("a", "x"), ready("a"), result("a", "r")}, "a",
			func(c ToolCall) bool { return c.Status == CallArgsReady && c.Result == ToolResult{} }, false},
		{"result moves running to done", []CallEvent{start("a", "x"), ready("a"), run("a"), result("a", "r")}, "a",
			func(c ToolCall) bool { return c.Status == CallDone && c.Result.Output == "r" }, false},
		{"result after done is ignored", []CallEvent{start("a", "x"), ready("a"), run("a"), result("a", "r"), result("a", "s")}, "a",
			func(c ToolCall) bool { return c.Status == CallDone && c.Result.Output == "r" }, false},
		{"interrupted from pending", []CallEvent{start("a", "x"), interrupt("a", CutStreamEnded)}, "a",
			func(c ToolCall) bool {
				return c.Status == CallInterrupted && c.Interruption.Stage == CallPending && c.Result.IsError && !c.Answered()
			}, false},
		{"error from running", []CallEvent{start("a", "x"), ready("a"), run("a"), failed("a", "timeout")}, "a",
			func(c ToolCall) bool { return c.Status == CallError && c.Result.Output == "timeout" && c.Answered() }, false},
		{"interrupt after done is ignored", []CallEvent{start("a", "x"), ready("a"), run("a"), result("a", "r"), interrupt("a", CutByUser)}, "a",
			func(c ToolCall) bool { return c.Status == CallDone && c.Result.Output == "r" }, false},
		{"anything after interrupted is ignored", []CallEvent{start("a", "x"), interrupt("a", CutByUser), delta("a", "{}"), ready("a"), run("a"), result("a", "r")}, "a",
			func(c ToolCall) bool {
				return c.Status == CallInterrupted && c.Result.Output == "stopped by the user" && c.ArgsText == ""
			}, false},
		{"unknown event type is ignored", []CallEvent{start("a", "x"), {Type: "bogus", ID: "a", ArgsTextDelta: "z"}}, "a",
			func(c ToolCall) bool { return c.Status == CallPending && c.ArgsText == "" }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := apply(c.events...)
			got, ok := m.Get(c.id)
			if c.absent {
				if ok || m.Len() != 0 {
					t.Fatalf("want no call, got %+v (len %d)", got, m.Len())
				}
				return
			}
			if !ok || !c.check(got) {
				t.Fatalf("unexpected call state %+v (found %v)", got, ok)
			}
		})
	}
}

// Three calls whose fragments interleave never mix, and List keeps start order.
func TestThreeInterleavedCallsNeverMix(t *testing.T) {
	m := apply(
		start("c1", "read_file"), start("c2", "list_dir"), delta("c1", `{"path":`), start("c3", "now"),
		delta("c2", `{"path"`), delta("c3", `{`), delta("c1", `"a.txt"}`), delta("c2", `:"."}`),
		ready("c2"), delta("c3", `}`), ready("c1"), ready("c3"), run("c1"), run("c2"), run("c3"),
		result("c3", "noon"), result("c1", "text"),
	)
	want := []struct {
		id, name, args string
		st             CallStatus
	}{
		{"c1", "read_file", `{"path":"a.txt"}`, CallDone},
		{"c2", "list_dir", `{"path":"."}`, CallRunning},
		{"c3", "now", `{}`, CallDone},
	}
	list := m.List()
	if len(list) != len(want) {
		t.Fatalf("List has %d calls, want %d", len(list), len(want))
	}
	for i, w := range want {
		c := list[i]
		if c.ID != w.id || c.Name != w.name || c.ArgsText != w.args || c.Status != w.st {
			t.Errorf("call %d: got %s %s %q %s, want %s %s %q %s", i, c.ID, c.Name, c.ArgsText, c.Status, w.id, w.name, w.args, w.st)
		}
	}
}

// A snapshot taken earlier does not change when the machine moves on.
func TestSnapshotsAreValues(t *testing.T) {
	m := apply(start("a", "x"), delta("a", `{"k":`))
	before := mustGet(t, m, "a")
	m.Apply(delta("a", `1}`))
	m.Apply(ready("a"))
	if before.ArgsText != `{"k":` || before.Status != CallPending {
		t.Fatalf("earlier snapshot changed: %+v", before)
	}
}

func TestParseArgsWrapsNonObjects(t *testing.T) {
	cases := []struct {
		text, json string
		want       map[string]any
	}{
		{` {"q": "x"} `, `{"q": "x"}`, map[string]any{"q": "x"}},
		{`[1]`, `{"value":[1]}`, map[string]any{"value": []any{json.Number("1")}}},
		{`"bare"`, `{"value":"bare"}`, map[string]any{"value": "bare"}},
		{`null`, `{"value":null}`, map[string]any{"value": nil}},
		{"  \n", `{}`, map[string]any{}},
	}
	for _, c := range cases {
		got, err := ParseArgs(c.text)
		if err != nil || got.JSON != c.json || !reflect.DeepEqual(got.Object, c.want) {
			t.Errorf("ParseArgs(%q) = %q %v, %v; want %q %v", c.text, got.JSON, got.Object, err, c.json, c.want)
		}
	}
	for _, bad := range []string{`{"a":`, `{} {}`, `nope`} {
		if _, err := ParseArgs(bad); !errors.Is(err, ErrInvalidArgs) {
			t.Errorf("ParseArgs(%q): error %v, want ErrInvalidArgs", bad, err)
		}
	}
}
