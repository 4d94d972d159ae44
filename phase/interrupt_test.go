package phase

import "testing"

func TestInterruptEndsOnlyUnfinishedCalls(t *testing.T) {
	c := NewToolCalls()
	for _, id := range []string{"pending", "running", "done", "failed"} {
		c.Apply(CallEvent{Type: CallStart, ID: id, Name: "t"})
	}
	for _, id := range []string{"running", "done", "failed"} {
		c.Apply(CallEvent{Type: CallReady, ID: id})
	}
	c.Apply(CallEvent{Type: CallResult, ID: "done", Result: "ok"})
	c.Apply(CallEvent{Type: CallFail, ID: "failed", Error: "boom"})
	c.Interrupt(Interruption{Why: CutServerStalled, Detail: "No data from the server for 2s"})
	want := map[string]any{
		"pending": Interruption{Why: CutServerStalled, Detail: "No data from the server for 2s", Pending: true},
		"running": Interruption{Why: CutServerStalled, Detail: "No data from the server for 2s"},
		"failed":  "boom",
		"done":    nil,
	}
	for id, w := range want {
		got, _ := c.Get(id)
		if got.Error != w {
			t.Errorf("%s: error %#v, want %#v", id, got.Error, w)
		}
	}
	if got, _ := c.Get("done"); got.Status != CallDone || got.Result != "ok" {
		t.Errorf("a finished call changed: %+v", got)
	}
}

func TestInterruptionText(t *testing.T) {
	cases := []struct {
		i    Interruption
		want string
	}{
		{Interruption{Why: CutByUser}, "stopped by the user"},
		{Interruption{Why: CutByUser, Pending: true}, "stopped by the user"},
		{Interruption{Why: CutServerStalled, Pending: true, Detail: "d"}, "not run: the server stalled before its arguments were complete (d)"},
		{Interruption{Why: CutServerStalled, Detail: "d"}, "interrupted: the server stalled while this tool ran; the tool was stopped (d)"},
		{Interruption{Why: CutConnectionDrop, Pending: true}, "not run: the connection dropped before its arguments were complete"},
		{Interruption{Why: CutArgumentsCut, Pending: true, Detail: "d"}, "not run: its arguments were cut off (d)"},
		{Interruption{Why: CutRequestFailed, Detail: "HTTP 500"}, "interrupted: the request failed while this tool ran; the tool was stopped (HTTP 500)"},
	}
	for _, tc := range cases {
		if got := tc.i.Error(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.i, got, tc.want)
		}
	}
}
