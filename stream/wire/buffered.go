package wire

import "github.com/phasechat/phasechat/phase"

// BufferedUpdates turns a whole answer (stream:false) into the Updates a stream of it would
// give, so the chat folds both paths the same way: the reasoning, the content (an empty
// content only when there are no tool calls, to move the phase), then per call a tool frame
// with start, delta and ready (error instead, for a failed result), and last the end-of-stream Update (N 0): done for a complete
// answer, else the error.
func BufferedUpdates(r Result) []Update {
	var out []Update
	add := func(kind Kind, ev phase.Event, calls ...phase.CallEvent) {
		out = append(out, Update{N: len(out) + 1, Kind: kind, Events: []phase.Event{ev}, Calls: calls})
	}
	m := r.Message
	if m.Reasoning() != "" {
		add(KindText, phase.Event{Kind: phase.KindReasoning, Delta: m.Reasoning()})
	}
	if m.Text() != "" || len(m.Calls()) == 0 {
		add(KindText, phase.Event{Kind: phase.KindText, Delta: m.Text()})
	}
	for _, tc := range m.Calls() {
		calls := []phase.CallEvent{{Type: phase.CallStart, ID: tc.ID, Name: tc.Name}}
		if tc.Arguments != "" {
			calls = append(calls, phase.CallEvent{Type: phase.CallDelta, ID: tc.ID, ArgsTextDelta: tc.Arguments})
		}
		if why := r.CutOff(); r.Outcome == OutcomeComplete && why != "" {
			calls = append(calls, phase.CallEvent{Type: phase.CallInterrupt, ID: tc.ID, Why: streamEnded(why)})
		} else if r.Outcome == OutcomeComplete {
			calls = append(calls, phase.CallEvent{Type: phase.CallReady, ID: tc.ID})
		} else if r.Err != nil {
			calls = append(calls, phase.CallEvent{Type: phase.CallInterrupt, ID: tc.ID, Why: streamEnded(r.Err.Message)})
		}
		add(KindTool, phase.Event{Kind: phase.KindTool, Tool: tc.Name}, calls...)
	}
	end := Update{Kind: kindOf(r.Outcome)}
	switch {
	case r.Outcome == OutcomeComplete:
		end.Events = []phase.Event{{Kind: phase.KindDone}}
	case r.Err != nil:
		end.Events, end.Err = []phase.Event{{Kind: phase.KindError, Error: r.Err.Message}}, r.Err
	}
	return append(out, end)
}
