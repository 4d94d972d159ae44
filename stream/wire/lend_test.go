package wire

import (
	"testing"

	"github.com/phasechat/phasechat/phase"
)

func TestTextFramesShareTheirEventBlocks(t *testing.T) {
	formats := map[Wire][]Frame{
		WireChat:      {},
		WireAnthropic: {{Event: "message_start", Data: aStart}, {Data: aBlock(0, `{"type":"text","text":""}`)}},
		WireResponses: {},
	}
	for w, start := range formats {
		frames := start
		for range 1000 {
			switch w {
			case WireChat:
				frames = append(frames, Frame{Data: delta(`{"content":"word "}`)})
			case WireAnthropic:
				frames = append(frames, Frame{Data: aDelta(0, `{"type":"text_delta","text":"word "}`)})
			case WireResponses:
				frames = append(frames, Frame{Data: rText("msg_1", "word ")})
			}
		}
		allocs := testing.AllocsPerRun(5, func() {
			d := NewFrameDecoder(w)
			for _, f := range frames {
				d.Frame(f)
			}
		})
		if perFrame := allocs / float64(len(frames)); perFrame > 0.2 {
			t.Errorf("%s: %.2f allocations per text frame; want the events of many frames in one block", w, perFrame)
		}
	}
}

func TestLentEventsAreTheUpdatesOwn(t *testing.T) {
	d := NewDecoder()
	first := d.Frame(Frame{Data: delta(`{"content":"a"}`)})
	second := d.Frame(Frame{Data: delta(`{"content":"b"}`)})
	first.Events = append(first.Events, phase.Event{Kind: phase.KindError, Error: "appended"})
	calls := d.Frame(Frame{Data: tool(0, "call_1", "f", `"{}"`)})
	third := d.Frame(Frame{Data: tool(0, "", "", `" "`)})
	calls.Calls = append(calls.Calls, phase.CallEvent{ID: "appended"})
	if len(second.Events) != 1 || second.Events[0].Delta != "b" || len(third.Calls) != 1 || third.Calls[0].ID != "call_1" {
		t.Fatalf("appending to one update's slices changed another's: %+v, %+v", second.Events, third.Calls)
	}
}
