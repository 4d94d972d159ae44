package chat

import (
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/stream/wire"
)

// LiveWhat names what a Live record says happened.
type LiveWhat string

const (
	LiveBegin     LiveWhat = "begin"     // a request is about to be sent
	LiveText      LiveWhat = "text"      // Text came in the reply since the last LiveText
	LiveReasoning LiveWhat = "reasoning" // Text came in the reasoning since the last LiveReasoning
	LiveCall      LiveWhat = "call"      // the call ID, Name, Args has its arguments complete
	LiveAsk       LiveWhat = "ask"       // the user is asked to approve the call ID
	LiveAnswer    LiveWhat = "answer"    // the user answered for the call ID: Allow
	LiveRun       LiveWhat = "run"       // the call ID, Name is about to start (written ahead)
	LiveResult    LiveWhat = "result"    // the call ID ended: Text its result, Ending how
	LiveEnd       LiveWhat = "end"       // the request ended without a final reply: End says why
	LiveUsage     LiveWhat = "usage"     // the server reported the request's Usage so far
)

// Live is what happened in a request before its reply became final, recorded as it happens
// so that a log cut short by a crash can be read back to the point it reached. The records
// of a request come after its LiveBegin and before its final assistant message, which
// supersedes them; they follow the order things happened in.
type Live struct {
	What           LiveWhat
	Text           string
	ID, Name, Args string
	Allow          bool
	Ending         phase.Ending
	End            phase.End
	Usage          *wire.Usage
}

// Streamed reports whether w is a reply's text or reasoning as it streams (LiveText,
// LiveReasoning): the records a final reply supersedes and a clean close folds away.
func (w LiveWhat) Streamed() bool { return w == LiveText || w == LiveReasoning }

// live is the record of l.
func live(l Live) Record { return Record{Live: &l} }

// liveText adds records of the reply's text and reasoning that came since the last ones.
func (c *Chat) liveText(st *step, effects []Effect) []Effect {
	if n := c.State.Reasoning.Len(); n > st.loggedReasoning {
		effects = append(effects, live(Live{What: LiveReasoning, Text: c.State.Reasoning.String()[st.loggedReasoning:n]}))
		st.loggedReasoning = n
	}
	if n := c.State.Text.Len(); n > st.loggedText {
		effects = append(effects, live(Live{What: LiveText, Text: c.State.Text.String()[st.loggedText:n]}))
		st.loggedText = n
	}
	return effects
}

// liveResult is the record of a call's end.
func liveResult(call phase.ToolCall) Record {
	return live(Live{What: LiveResult, ID: call.ID, Name: call.Name, Text: call.Result.Output, Ending: call.Ending()})
}

// withCrashNotes is h as the model is sent it: a reply cut short by a crash ends in a note
// that says so, so the model knows its answer was cut (and no reply is sent empty). h itself
// is left as it is.
func withCrashNotes(h []wire.Message) []wire.Message {
	var out []wire.Message
	for i, m := range h {
		if m.Role != "assistant" || m.End.Why != phase.EndCrashed {
			continue
		}
		if out == nil {
			out = append([]wire.Message(nil), h...)
		}
		note := "[" + m.End.Text() + "]"
		if m.Text() != "" {
			note = "\n\n" + note
		}
		out[i].Parts = append(m.Parts[:len(m.Parts):len(m.Parts)], wire.Text{Text: note})
	}
	if out == nil {
		return h
	}
	return out
}

// NoReplyNote stands, in the requests only, for the reply a user message never got (its
// request was stopped before any text, or failed, and a new message followed).
const NoReplyNote = "[no reply to this message]"

// withNoReplyNotes is h as the model is sent it: a user message followed by another user
// message gets a note in the assistant's place between them, so no two user messages go in a
// row — servers whose templates take only alternating roles refuse them with HTTP 400. The
// new prompt stays last; h itself is left as it is.
func withNoReplyNotes(h []wire.Message) []wire.Message {
	gaps := 0
	for i := 1; i < len(h); i++ {
		if h[i].Role == "user" && h[i-1].Role == "user" {
			gaps++
		}
	}
	if gaps == 0 {
		return h
	}
	out := make([]wire.Message, 0, len(h)+gaps)
	for i, m := range h {
		if i > 0 && m.Role == "user" && h[i-1].Role == "user" {
			out = append(out, wire.Message{Role: "assistant", Parts: wire.TextParts(NoReplyNote)})
		}
		out = append(out, m)
	}
	return out
}
