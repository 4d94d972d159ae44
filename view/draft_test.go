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
		d.tr.SetMark(e, d.Mark, d.Note)
	}
	if d.Expanded != e.Expanded() {
		d.tr.ToggleReasoning(e)
	}
	var asking []string // the ids of the approvals waiting, in order
	for i, c := range d.Cards {
		id := c.ID
		if id == "" {
			id = fmt.Sprint("call_", i)
		}
		args := c.Args
		if len(args) < c.ArgsBytes {
			args += strings.Repeat("x", c.ArgsBytes-len(args))
		}
		call := phase.ToolCall{ID: id, Name: c.Name, Status: c.Status, ArgsText: args}
		if old, ok := e.Card(id); !ok || old.Status() != call.Status || old.Name() != call.Name || old.Args() != call.ArgsText {
			d.tr.SetCall(e, call)
		}
		if old, _ := e.Card(id); old.Summary() != c.Summary {
			d.tr.SetSummary(e, id, c.Summary)
		}
		if old, _ := e.Card(id); old.Result() != c.Result || old.Duration() != c.Duration {
			d.tr.SetResult(e, id, c.Result, c.Duration)
		}
		d.tr.SetAsking(e, id, c.Asking)
		if c.AskOf > 0 {
			if asking == nil {
				asking = make([]string, c.AskOf)
				for j := range asking {
					asking[j] = fmt.Sprint("other_", j)
				}
			}
			asking[c.AskPlace-1] = id
		}
		if c.Declined {
			d.tr.SetDeclined(e, id)
		}
		d.tr.SetElapsed(e, id, c.Elapsed)
		d.tr.SetOutput(e, id, c.Output)
		if old, _ := e.Card(id); old.Expanded() != c.Expanded {
			d.tr.ToggleCard(e, i)
		}
	}
	d.tr.NumberAsking(e, asking)
	return e
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
