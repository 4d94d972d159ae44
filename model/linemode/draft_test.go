package linemode

import (
	"fmt"
	"strings"
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// draft is a transcript entry that a test changes in place, the way the engine changes its
// own; drafts.publish hands every change to the transcript through its methods, so the
// published entries keep their identity from one publish to the next.
type draft struct {
	Role                  transcript.Role
	Text, Reasoning, Note string
	Mark                  transcript.Mark
	Streaming             bool
	Cards                 []draftCard
	e                     *transcript.Entry
}

// draftCard is a tool card of a draft; its call's id is call_<index>.
type draftCard struct {
	Name                  string
	Status                phase.CallStatus
	ArgsBytes             int // argument text of this size when Args is shorter
	Args, Summary, Result string
	Duration              time.Duration
	Asking                bool
}

type drafts struct {
	tr   transcript.Transcript
	list []*draft
}

func (d *drafts) add(x *draft) *draft {
	d.list = append(d.list, x)
	return x
}

func (d *drafts) last() *draft { return d.list[len(d.list)-1] }

// publish brings the transcript up to date with the drafts and returns its entries.
func (d *drafts) publish() []*transcript.Entry {
	for _, x := range d.list {
		if x.e == nil {
			x.e = d.tr.Add(transcript.Spec{Role: x.Role, Streaming: x.Streaming})
		}
		d.tr.SetReply(x.e, x.Text, x.Reasoning)
		if !x.Streaming {
			d.tr.EndStreaming(x.e)
		}
		if x.Mark != x.e.Mark() || x.Note != x.e.Note() {
			d.tr.SetEnd(x.e, endOf(x.Mark, x.Note))
		}
		for i, c := range x.Cards {
			id := fmt.Sprint("call_", i)
			args := c.Args
			if len(args) < c.ArgsBytes {
				args += strings.Repeat("x", c.ArgsBytes-len(args))
			}
			call := phase.ToolCall{ID: id, Name: c.Name, Status: c.Status, ArgsText: args,
				Result: phase.ToolResult{Output: c.Result, IsError: c.Status.Failed(), Duration: c.Duration}}
			if c.Asking {
				call.Status = phase.CallAsking
			}
			d.tr.SetCall(x.e, call)
			d.tr.SetSummary(x.e, id, c.Summary)
		}
	}
	return d.tr.Entries()
}

// endOf is the end a reply marked m with note n had.
func endOf(m transcript.Mark, n string) phase.End {
	why := map[transcript.Mark]phase.EndReason{transcript.MarkStopped: phase.EndStopped, transcript.MarkFailed: phase.EndFailed,
		transcript.MarkCutOff: phase.EndCutOff}[m]
	return phase.End{Why: why, Note: n}
}
