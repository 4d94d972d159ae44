package sessionlog

import (
	"strings"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// endRecord is how a reply that was not whole ended: {"why":"failed","note":"HTTP 500 …"}.
type endRecord struct {
	Why  string `json:"why"`
	Note string `json:"note,omitempty"`
}

// endRecordOf is the record of end; nil for a whole reply.
func endRecordOf(end phase.End) *endRecord {
	if end.Whole() {
		return nil
	}
	return &endRecord{Why: string(end.Why), Note: end.Note}
}

// callRecord is how a call that did not end done ended: its status, why it was not run, or
// what interrupted it in which state.
type callRecord struct {
	Status string `json:"status"`
	NotRun string `json:"not_run,omitempty"`
	Cut    string `json:"cut,omitempty"`
	Detail string `json:"detail,omitempty"`
	Stage  string `json:"stage,omitempty"`
}

// callRecordOf is the record of e; nil for a call that ended done (or whose end is not known).
func callRecordOf(e phase.Ending) *callRecord {
	if !e.Status.Failed() {
		return nil
	}
	i := e.Interruption
	return &callRecord{Status: string(e.Status), NotRun: string(e.NotRun), Cut: string(i.Why), Detail: i.Detail, Stage: string(i.Stage)}
}

// ends is how m ended, as the records beside it say; old is true for a message written before
// parts, whose log may say it in words instead (Ended, or a tool result's own words).
func ends(m wire.Message, end *endRecord, call *callRecord, ended string, old bool) (phase.End, phase.Ending) {
	switch {
	case m.Role == "assistant" && end != nil:
		return end.end(), phase.Ending{}
	case m.Role == "assistant" && old:
		return oldEnd(ended), phase.Ending{}
	case m.Role == "tool" && call != nil:
		return phase.End{}, call.ending()
	case m.Role == "tool" && old:
		return phase.End{}, oldEnding(m.Text())
	}
	return phase.End{}, phase.Ending{}
}

// end is the End the record says; a reason no version wrote (a log edited by hand) reads as
// a whole reply.
func (r *endRecord) end() phase.End {
	switch why := phase.EndReason(r.Why); why {
	case phase.EndCutOff, phase.EndStopped, phase.EndSignal, phase.EndFailed, phase.EndCrashed:
		return phase.End{Why: why, Note: r.Note}
	}
	return phase.End{}
}

// ending is the Ending the record says; a status that is not a failed one (a log edited by
// hand) reads as not known, so the call shows as done.
func (r *callRecord) ending() phase.Ending {
	st := phase.CallStatus(r.Status)
	if !st.Failed() {
		return phase.Ending{}
	}
	return phase.Ending{Status: st, NotRun: phase.NotRun(r.NotRun),
		Interruption: phase.Interruption{Why: phase.Cutoff(r.Cut), Detail: r.Detail, Stage: phase.CallStatus(r.Stage)}}
}

// oldStopped is the words logs written before End and Call kept for a reply or a call the
// user stopped.
const oldStopped = "stopped by the user"

// oldEnds are the words logs written before End kept for why a reply ended early, each for
// its reason; the words of a reason with a note are followed by it.
var oldEnds = []struct {
	words string
	why   phase.EndReason
	note  bool
}{
	{oldStopped, phase.EndStopped, false},
	{"the request failed: ", phase.EndFailed, true},
	{"cut off: ", phase.EndCutOff, true},
}

// oldEnd reads the words a log written before End kept for why a reply ended early. Words it
// never wrote (a log edited by hand) read as a whole reply.
func oldEnd(words string) phase.End {
	for _, o := range oldEnds {
		if note, ok := strings.CutPrefix(words, o.words); ok && (o.note || note == "") {
			return phase.End{Why: o.why, Note: note}
		}
	}
	return phase.End{}
}

// oldEnding reads how a call ended from its result's words, for a log written before Call: a
// result that is one of the engine's own answers for a call that did not run to the end
// failed (declined when the user declined it, stopped when the user stopped it); any other is
// done. A log written since keeps Call for those, so its results are never read this way
// unless a tool printed exactly such an answer.
func oldEnding(result string) phase.Ending {
	failed := phase.Ending{Status: phase.CallError}
	switch {
	case result == phase.NotRunDeclined.Text():
		return phase.Ending{Status: phase.CallDeclined, NotRun: phase.NotRunDeclined}
	case result == oldStopped:
		return phase.Ending{Status: phase.CallInterrupted, Interruption: phase.Interruption{Why: phase.CutByUser, Stage: phase.CallRunning}}
	case result == phase.NotRunNoApprover.Text(), result == phase.NotRunNoTools.Text(),
		result == phase.Interruption{Why: phase.CutSessionEnded}.Text(), interruptedWords(result):
		return failed
	}
	return phase.Ending{}
}

// interruptedWords reports whether result is in the words an interrupted call was answered
// with before Call: "interrupted: " and why.
func interruptedWords(result string) bool {
	_, ok := strings.CutPrefix(result, "interrupted: ")
	return ok
}
