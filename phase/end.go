package phase

// End is how a reply ended. The zero value is a whole reply.
type End struct {
	Why  EndReason
	Note string // cut off: why the server cut it; failed: the error the user was told; signal: which
}

// EndReason names how a reply ended.
type EndReason string

const (
	EndComplete EndReason = ""        // the reply is whole
	EndCutOff   EndReason = "cut off" // the server cut it off (an output limit, a content filter)
	EndStopped  EndReason = "stopped" // the user stopped it
	EndSignal   EndReason = "signal"  // a signal stopped the program
	EndFailed   EndReason = "failed"  // its request failed
	EndCrashed  EndReason = "crashed" // the program stopped unexpectedly before the reply ended (its log is all that is left)
)

// Whole reports whether the reply ended complete.
func (e End) Whole() bool { return e.Why == EndComplete }

// Text is the one wording of why a reply is incomplete; "" for a whole one.
func (e End) Text() string {
	switch e.Why {
	case EndComplete:
		return ""
	case EndStopped:
		return "stopped by the user"
	case EndFailed:
		return "the request failed: " + e.Note
	case EndCutOff:
		return "cut off: " + e.Note
	case EndSignal:
		if e.Note == "" {
			return "stopped by a signal"
		}
		return "stopped by " + e.Note
	case EndCrashed:
		return "interrupted: phasechat stopped unexpectedly"
	}
	return string(e.Why)
}

// Ending is how a call with an answer ended, beside the words the model reads
// (ToolResult.Output): its final status, and why it did not run to a result of its own. A
// history keeps it so that a resumed card shows what the live one did.
type Ending struct {
	Status       CallStatus
	NotRun       NotRun
	Interruption Interruption
}

// Ending is the call's Ending.
func (c ToolCall) Ending() Ending {
	return Ending{Status: c.Status, NotRun: c.NotRun, Interruption: c.Interruption}
}
