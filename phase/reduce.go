package phase

// Transition is one accepted (phase, event kind) pair and the phase it leads to. A pair that is
// not in Transitions is ignored: Reduce returns the state unchanged.
type Transition struct {
	From Phase
	On   Kind
	To   Phase
}

// Transitions is the reducer's whole phase logic as data. Reduce consults it for every event
// and a test draws it, so the diagram in docs/phases.md cannot drift from the code.
var Transitions = []Transition{
	{Idle, KindSubmit, StreamingText},
	{Complete, KindSubmit, StreamingText},
	{Error, KindSubmit, StreamingText},
	{StreamingText, KindSubmit, StreamingText},
	{StreamingTool, KindSubmit, StreamingText},

	{StreamingText, KindText, StreamingText},
	{StreamingTool, KindText, StreamingText},
	{StreamingText, KindReasoning, StreamingText},
	{StreamingTool, KindReasoning, StreamingText},

	{StreamingText, KindTool, StreamingTool},
	{StreamingTool, KindTool, StreamingTool},
	{StreamingText, KindToolWork, StreamingTool},
	{StreamingTool, KindToolWork, StreamingTool},

	{StreamingText, KindAsk, StreamingTool},
	{StreamingTool, KindAsk, StreamingTool},

	{StreamingText, KindError, Error},
	{StreamingTool, KindError, Error},

	{StreamingText, KindDone, Complete},
	{StreamingTool, KindDone, Complete},

	{StreamingText, KindStop, Complete},
	{StreamingTool, KindStop, Complete},

	{StreamingText, KindWithdraw, Idle},
	{StreamingTool, KindWithdraw, Idle},
}

// transitionTo is Transitions indexed for O(1) lookup; ok is false for ignored pairs.
var transitionTo = func() (t [len(phaseNames)][len(kindNames)]struct {
	to Phase
	ok bool
}) {
	for _, tr := range Transitions {
		if t[tr.From][tr.On].ok {
			panic("phase: duplicate transition " + tr.From.String() + " on " + tr.On.String())
		}
		t[tr.From][tr.On].to, t[tr.From][tr.On].ok = tr.To, true
	}
	return t
}()

// Next returns the phase that ev leads to from p, and false when p ignores ev.
func Next(p Phase, k Kind) (Phase, bool) {
	if int(p) >= len(phaseNames) || int(k) >= len(kindNames) {
		return p, false
	}
	e := transitionTo[p][k]
	return e.to, e.ok
}

// Reduce folds one event into the state. It is pure and total: an event the current phase
// does not accept (see Transitions) returns s unchanged, so done after error stays error and
// frames that arrive after Stop change nothing. Only KindText adds to Text and only
// KindReasoning to Reasoning; tool frames never touch either. Cost: O(len(ev.Delta)).
func Reduce(s State, ev Event) State {
	to, ok := Next(s.Phase, ev.Kind)
	if !ok {
		return s
	}
	s.Reason, s.Ask, s.Stopped = "", "", false
	switch ev.Kind {
	case KindSubmit, KindWithdraw:
		s = State{}
	case KindText:
		s.Text = s.Text.Append(ev.Delta)
	case KindReasoning:
		s.Reasoning = s.Reasoning.Append(ev.Delta)
	case KindTool, KindToolWork:
		if ev.Tool != "" {
			s.Tool = ev.Tool
		}
	case KindAsk:
		if ev.Tool != "" {
			s.Tool = ev.Tool
		}
		s.Ask = ev.Delta
	case KindError:
		s.Reason = ev.Error
		if s.Reason == "" {
			s.Reason = "The request failed"
		}
	case KindStop:
		s.Stopped = true
	case KindDone:
		s.Reason = ev.Error // why a complete reply is not whole (cut off), or ""
	}
	s.Phase = to
	return s
}
