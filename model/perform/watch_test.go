package perform

import (
	"testing"

	"github.com/phasechat/phasechat/model/chat"
)

// A watch hands over the latest lines, skips lines replaced before they were taken, and ends
// with the tool's result, which wins over lines not yet taken.
func TestToolWatchHandsOverTheLatestThenTheResult(t *testing.T) {
	w := newToolWatch(3, "c1")
	w.set("one")
	w.set("two")
	out, ok := w.next().(chat.ToolOutputMsg)
	if !ok || out.Output != "two" || out.Req != 3 || out.CallID != "c1" {
		t.Fatalf("first message %+v", out)
	}
	got := make(chan any)
	go func() { got <- out.Next() }()
	w.set("three")
	if m, ok := (<-got).(chat.ToolOutputMsg); !ok || m.Output != "three" {
		t.Fatalf("a waiting next got %+v", m)
	}
	w.set("four")
	w.finish(chat.ToolDoneMsg{Req: 3, CallID: "c1"})
	if done, ok := w.next().(chat.ToolDoneMsg); !ok || done.CallID != "c1" {
		t.Fatalf("after the result: %+v", done)
	}
}
