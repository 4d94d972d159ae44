package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// draft is a transcript entry that a test writes as a plain value and changes in place, the
// way the engine changes its own; entry hands every change to a transcript entry through the
// transcript's methods (which bump its version), so the entry keeps its identity from one
// render to the next.
type draft struct {
	Role                  transcript.Role
	Text, Reasoning, Note string
	Cards                 []draftCard
	Mark                  transcript.Mark
	Streaming, Expanded   bool

	tr transcript.Transcript
	e  *transcript.Entry
}

// draftCard is a tool card of a draft. Its call's id is ID, else call_<index>.
type draftCard struct {
	ID, Name              string
	Status                phase.CallStatus
	ArgsBytes             int // argument text of this size when Args is shorter
	Args, Summary, Result string
	Duration              time.Duration
	Asking, Expanded      bool
	AskPlace, AskOf       int // the card's place among AskOf approvals waiting
	Declined              bool
	Elapsed               time.Duration
	Output                string
}

// entry brings the draft's transcript entry up to date and returns it.
func (d *draft) entry() *transcript.Entry {
	if d.e == nil {
		d.e = d.tr.Add(transcript.Spec{Role: d.Role, Streaming: d.Streaming})
	}
	e := d.e
	d.tr.SetReply(e, d.Text, d.Reasoning)
	if !d.Streaming {
		d.tr.EndStreaming(e)
	}
	if d.Mark != e.Mark() || d.Note != e.Note() {
		d.tr.SetEnd(e, endOf(d.Mark, d.Note))
	}
	if d.Expanded != e.Expanded() {
		d.tr.ToggleReasoning(e)
	}
	for i, c := range d.Cards {
		id := c.ID
		if id == "" {
			id = fmt.Sprint("call_", i)
		}
		args := c.Args
		if len(args) < c.ArgsBytes {
			args += strings.Repeat("x", c.ArgsBytes-len(args))
		}
		d.tr.SetCall(e, cardCall(id, args, c))
		d.tr.SetSummary(e, id, c.Summary)
		d.tr.SetElapsed(e, id, c.Elapsed)
		d.tr.SetOutput(e, id, c.Output)
		if old, _ := e.Card(id); old.Expanded() != c.Expanded {
			d.tr.ToggleCard(e, i)
		}
	}
	return e
}

// cardCall is the machine's snapshot a draft card stands for: Asking and Declined are the
// statuses they name, over the draft's Status; an interrupted card was stopped by the user
// while it ran.
func cardCall(id, args string, c draftCard) phase.ToolCall {
	call := phase.ToolCall{ID: id, Name: c.Name, Status: c.Status, ArgsText: args,
		Result: phase.ToolResult{Output: c.Result, IsError: c.Status.Failed(), Duration: c.Duration}}
	switch {
	case c.Asking:
		call.Status, call.AskPlace, call.AskOf = phase.CallAsking, c.AskPlace, c.AskOf
	case c.Declined:
		call.Status, call.NotRun, call.Result.IsError = phase.CallDeclined, phase.NotRunDeclined, true
	case c.Status == phase.CallInterrupted:
		call.Interruption = phase.Interruption{Why: phase.CutByUser, Stage: phase.CallRunning}
	}
	return call
}

// published brings every draft's entry up to date and returns them in order.
func published(ds []*draft) []*transcript.Entry {
	out := make([]*transcript.Entry, len(ds))
	for i, d := range ds {
		out[i] = d.entry()
	}
	return out
}

// card is c as a transcript card.
func (c draftCard) card() transcript.Card {
	d := &draft{Role: transcript.RoleAssistant, Cards: []draftCard{c}}
	return d.entry().Cards()[0]
}

// endOf is the end a reply marked m with note n had.
func endOf(m transcript.Mark, n string) phase.End {
	why := map[transcript.Mark]phase.EndReason{transcript.MarkStopped: phase.EndStopped, transcript.MarkFailed: phase.EndFailed,
		transcript.MarkCutOff: phase.EndCutOff}[m]
	return phase.End{Why: why, Note: n}
}
