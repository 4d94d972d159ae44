package phase

// Cutoff is what ended a call before it had a result of its own.
type Cutoff string

const (
	CutByUser         Cutoff = "user"    // the user stopped the reply
	CutServerStalled  Cutoff = "stalled" // the server sent nothing for the stall timeout
	CutConnectionDrop Cutoff = "dropped" // the connection broke or was reset
	CutArgumentsCut   Cutoff = "cut off" // the reply ended before the arguments were complete
	CutRequestFailed  Cutoff = "failed"  // the server reported an error
	CutStreamEnded    Cutoff = "ended"   // the stream ended the call unfinished; Detail says how
	CutSessionEnded   Cutoff = "session" // a resumed conversation holds no result for the call
	CutCrashed        Cutoff = "crashed" // phasechat stopped unexpectedly (its log is all that is left)
)

// Interruption is why an interrupted call was ended: Why, the words the user was told about
// it (Detail, e.g. "No data from the server for 30s"), and the state the call was in (Stage,
// set by the machine). Its Text is what the card shows and the model reads.
type Interruption struct {
	Why    Cutoff
	Detail string
	Stage  CallStatus
}

// Text is the one wording of an interruption.
func (i Interruption) Text() string {
	var what string
	switch {
	case i.Why == CutByUser || i.Why == "":
		return "stopped by the user"
	case i.Why == CutSessionEnded:
		return "No result: the session ended before this tool finished."
	case i.Why == CutCrashed && i.Stage == CallRunning:
		return "outcome unknown: phasechat stopped while it ran"
	case i.Why == CutCrashed:
		return "not run: phasechat stopped before it started"
	case i.Why == CutStreamEnded:
		return "not run: " + i.Detail
	case i.Stage == CallPending && i.Why == CutArgumentsCut:
		what = "not run: its arguments were cut off"
	case i.Stage == CallPending:
		what = "not run: " + i.cause() + " before its arguments were complete"
	case i.Stage != CallRunning:
		what = "not run: " + i.cause() + " before it started"
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
	case CutArgumentsCut:
		return "the reply was cut off"
	}
	return "the request failed"
}

// NotRun is why a call was never run although its arguments were whole: the user declined
// it, or the session could not run it. Its Text is what the card shows and the model reads.
type NotRun string

const (
	NotRunDeclined   NotRun = "declined"    // the user said no
	NotRunNoApprover NotRun = "no approver" // it needs approval and nobody can give it
	NotRunNoTools    NotRun = "no tools"    // the session offers no tools
	NotRunUnanswered NotRun = "unanswered"  // phasechat stopped while it asked the user
)

// Text is the one wording of a reason a call was not run.
func (n NotRun) Text() string {
	switch n {
	case NotRunDeclined:
		return "The user declined to run this tool."
	case NotRunNoApprover:
		return "Not run: this tool has side effects and there is no terminal to ask for approval (start phasechat with --yes to allow it)."
	case NotRunNoTools:
		return "Not run: no tools are available in this session."
	case NotRunUnanswered:
		return "Declined: phasechat stopped before the user answered whether to run this tool."
	}
	return ""
}
