package phase

import "testing"

func TestInterruptEndsOnlyUnfinishedCalls(t *testing.T) {
	c := NewToolCalls()
	for _, id := range []string{"pending", "running", "done", "failed"} {
		c.Apply(CallEvent{Type: CallStart, ID: id, Name: "t"})
	}
	for _, id := range []string{"running", "done", "failed"} {
		c.Apply(CallEvent{Type: CallReady, ID: id})
		c.Apply(CallEvent{Type: CallRun, ID: id})
	}
	c.Apply(CallEvent{Type: CallResult, ID: "done", Result: ToolResult{Output: "ok"}})
	c.Apply(CallEvent{Type: CallResult, ID: "failed", Result: ToolResult{Output: "boom", IsError: true}})
	c.Interrupt(Interruption{Why: CutServerStalled, Detail: "No data from the server for 2s"})
	want := map[string]Interruption{
		"pending": {Why: CutServerStalled, Detail: "No data from the server for 2s", Stage: CallPending},
		"running": {Why: CutServerStalled, Detail: "No data from the server for 2s", Stage: CallRunning},
		"failed":  {},
		"done":    {},
	}
	for id, w := range want {
		got, _ := c.Get(id)
		if got.Interruption != w {
			t.Errorf("%s: interruption %#v, want %#v", id, got.Interruption, w)
		}
	}
	if got, _ := c.Get("done"); got.Status != CallDone || got.Result.Output != "ok" {
		t.Errorf("a finished call changed: %+v", got)
	}
	if got, _ := c.Get("failed"); got.Status != CallError || got.Result.Output != "boom" {
		t.Errorf("a failed call changed: %+v", got)
	}
}

func TestInterruptionText(t *testing.T) {
	cases := []struct {
		i    Interruption
		want string
	}{
		{Interruption{Why: CutByUser, Stage: CallRunning}, "stopped by the user"},
		{Interruption{Why: CutByUser, Stage: CallPending}, "stopped by the user"},
		{Interruption{Why: CutServerStalled, Stage: CallPending, Detail: "d"}, "not run: the server stalled before its arguments were complete (d)"},
		{Interruption{Why: CutServerStalled, Stage: CallRunning, Detail: "d"}, "interrupted: the server stalled while this tool ran; the tool was stopped (d)"},
		{Interruption{Why: CutConnectionDrop, Stage: CallPending}, "not run: the connection dropped before its arguments were complete"},
		{Interruption{Why: CutArgumentsCut, Stage: CallPending, Detail: "d"}, "not run: its arguments were cut off (d)"},
		{Interruption{Why: CutArgumentsCut, Stage: CallRunning}, "interrupted: the reply was cut off while this tool ran; the tool was stopped"},
		{Interruption{Why: CutRequestFailed, Stage: CallRunning, Detail: "HTTP 500"}, "interrupted: the request failed while this tool ran; the tool was stopped (HTTP 500)"},
		{Interruption{Why: CutRequestFailed, Stage: CallAsking}, "not run: the request failed before it started"},
		{Interruption{Why: CutStreamEnded, Stage: CallPending, Detail: "The reply was cut off"}, "not run: The reply was cut off"},
		{Interruption{Why: CutSessionEnded}, "No result: the session ended before this tool finished."},
	}
	for _, tc := range cases {
		if got := tc.i.Text(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.i, got, tc.want)
		}
	}
}
