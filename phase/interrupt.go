package phase

// Cutoff is what ended a call before it had a result of its own.
type Cutoff string

const (
	CutByUser         Cutoff = "user"    // the user stopped the reply
	CutServerStalled  Cutoff = "stalled" // the server sent nothing for the stall timeout
	CutConnectionDrop Cutoff = "dropped" // the connection broke or was reset
	CutArgumentsCut   Cutoff = "cut off" // the reply ended before the arguments were complete
	CutRequestFailed  Cutoff = "failed"  // the server reported an error
)

// Interruption is the Error of a call that an interruption ended: why, and the words the user
// was told about it (Detail, e.g. "No data from the server for 30s"). Pending says the call's
// arguments were still arriving. Its text is what the card shows and the model reads.
type Interruption struct {
	Why     Cutoff
	Detail  string
	Pending bool
}

func (i Interruption) Error() string {
	if i.Why == CutByUser || i.Why == "" {
		return "stopped by the user"
	}
	var what string
	switch {
	case i.Why == CutArgumentsCut:
		what = "not run: its arguments were cut off"
		if !i.Pending {
			what = "interrupted: the reply was cut off while this tool ran; the tool was stopped"
		}
	case i.Pending:
		what = "not run: " + i.cause() + " before its arguments were complete"
	default:
		what = "interrupted: " + i.cause() + " while this tool ran; the tool was stopped"
	}
	if i.Detail != "" {
		what += " (" + i.Detail + ")"
	}
	return what
}

func (i Interruption) cause() string {
	switch i.Why {
	case CutServerStalled:
		return "the server stalled"
	case CutConnectionDrop:
		return "the connection dropped"
	}
	return "the request failed"
}

// Interrupt ends every call that is still pending or running with an Interruption of why: a
// failed call, whose Error says whether its arguments were still arriving. Final calls keep
// their result.
func (c *ToolCalls) Interrupt(why Interruption) {
	for _, e := range c.order {
		st := e.call.Status
		if st != CallPending && st != CallRunning {
			continue
		}
		i := why
		i.Pending = st == CallPending
		c.Apply(CallEvent{Type: CallFail, ID: e.call.ID, Error: i})
	}
}
