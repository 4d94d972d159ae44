package wire

import (
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/internal/ssetest"
)

// sseFrames cuts an SSE body into Frames by the reference rule (ssetest.Frames), which the
// stream package's framer is held to; the decoders' tests need no more of the framing.
func sseFrames(body string) []Frame {
	var out []Frame
	for _, e := range ssetest.Frames(body) {
		out = append(out, Frame{Event: e.Event, Data: e.Data})
	}
	return out
}

// decodeBody decodes body as format as (detected from the first event when empty) the way the
// stream package's feed does: frame by frame until the format's own end, then End with a clean
// end of the body.
func decodeBody(as Wire, body string) ([]Update, Result) {
	frames := sseFrames(body)
	if as == "" && len(frames) > 0 {
		as = DetectWire(frames[0])
	}
	dec := NewFrameDecoder(as)
	var ups []Update
	for _, f := range frames {
		if dec.Ended() {
			break
		}
		ups = append(ups, dec.Frame(f))
	}
	ups = append(ups, dec.End(nil))
	return ups, dec.Result()
}

// fold applies every update to a submitted phase and a fresh ToolCalls machine.
func fold(ups []Update) (phase.State, *phase.ToolCalls) {
	s := phase.Reduce(phase.State{}, phase.Event{Kind: phase.KindSubmit})
	m := phase.NewToolCalls()
	for _, u := range ups {
		for _, ev := range u.Events {
			s = phase.Reduce(s, ev)
		}
		for _, c := range u.Calls {
			m.Apply(c)
		}
	}
	return s, m
}

// errorText is e's message, nil for no error.
func errorText(e *Error) *string {
	if e == nil {
		return nil
	}
	return &e.Message
}
