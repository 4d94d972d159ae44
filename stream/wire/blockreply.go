package wire

import (
	"context"
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/phasechat/phasechat/phase"
)

// replyState is what the Anthropic Messages and Responses decoders share: the reply being
// reassembled and the outcome rules. A stream is complete only when the format's own end event
// arrived (conclude); a clean end of input before it is truncated; an error event, or a failed
// end, makes it an error, and the first error is the one reported.
type replyState struct {
	n         int
	calls     blockCalls
	content   gathered
	reasoning gathered
	split     bool // the next reasoning text starts a new block or part: separate it
	finish    string
	said      string // finish in the format's own words (Result.FinishSaid)
	usage     usageSeen
	err       *Error
	outcome   Outcome
	malformed int
	replay    []json.RawMessage
	wire      Wire
	endEvent  string // the format's end event, named when a stream ends without it
	seen      formatSeen
	lend      lender
	// highContent and highReasoning hold a high surrogate half that ended the last delta of
	// the text, to be joined with the low half the next one starts with (0: none).
	highContent, highReasoning rune
}

func (s *replyState) Ended() bool { return s.outcome != "" }

func (s *replyState) LeaveText() { s.content.left, s.reasoning.left = true, true }

// next starts the Update of one frame; done is true when the stream has already ended.
func (s *replyState) next(f Frame) (u Update, done bool) {
	s.n++
	if s.outcome == "" && !s.seen.own {
		s.seen.see(s.wire, f)
	}
	u = Update{N: s.n, Frame: f, Kind: KindIgnore}
	s.lend.start(&u)
	return u, s.outcome != ""
}

// begin starts the Update of one frame and says whether its data is an event to decode: not
// when the stream has already ended, when the frame is an `event: error` (the error is applied
// to u), or when its data is not a JSON object (counted as malformed). data is a read-only view
// of f.Data.
func (s *replyState) begin(f Frame) (u Update, data []byte, decode bool) {
	u, done := s.next(f)
	if done {
		return u, nil, false
	}
	data = unsafe.Slice(unsafe.StringData(f.Data), len(f.Data))
	if f.Event == "error" {
		s.fail(&u, serverError(data))
		return u, nil, false
	}
	return u, data, s.object(&u, data)
}

// undecodable counts a frame whose event did not decode as malformed.
func (s *replyState) undecodable(u *Update) {
	s.malformed++
	u.Kind = KindMalformed
}

// object reports whether data is a JSON object; when not, the frame is counted as malformed.
func (s *replyState) object(u *Update, data []byte) bool {
	for _, c := range data {
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		if c == '{' {
			return true
		}
		break
	}
	s.malformed++
	u.Kind = KindMalformed
	return false
}

// text applies one content or reasoning delta. An empty delta still moves the phase.
// Reasoning from a new block or summary part is set off from the one before by a blank line.
func (s *replyState) text(u *Update, t string, reasoning bool) {
	if u.Kind != KindTool {
		u.Kind = KindText
	}
	kind := phase.KindText
	if reasoning {
		kind = phase.KindReasoning
		if s.split && t != "" {
			s.split = false
			if s.reasoning.n > 0 {
				t = "\n\n" + t
			}
		}
		s.reasoning.add(t)
	} else {
		s.content.add(t)
	}
	u.Events = append(u.Events, phase.Event{Kind: kind, Delta: t})
}

// textHalves applies one delta whose escapes left halves lone at its edges: a high half held
// back from the delta before is joined with the low half this one starts with, and a high half
// ending this one is held back. It returns the text applied.
func (s *replyState) textHalves(u *Update, t string, halves lone, reasoning bool) string {
	t = joinHalves(t, s.high(reasoning), halves)
	s.text(u, t, reasoning)
	return t
}

// high is the held-back high half of the reply's content or of its reasoning.
func (s *replyState) high(reasoning bool) *rune {
	if reasoning {
		return &s.highReasoning
	}
	return &s.highContent
}

// flushHalf applies a held-back high half of the content or the reasoning as U+FFFD, when its
// text part ends without the low half; it returns the text applied.
func (s *replyState) flushHalf(u *Update, reasoning bool) string {
	h := s.high(reasoning)
	if *h == 0 {
		return ""
	}
	*h = 0
	s.text(u, "\uFFFD", reasoning)
	return "\uFFFD"
}

// completeHalf applies rest, what a part's whole text adds to its deltas, and returns the text
// applied; when a high half is held back and rest starts with the character that half begins,
// the half is its start.
func (s *replyState) completeHalf(u *Update, rest string, reasoning bool) string {
	h := s.high(reasoning)
	if r, _ := utf8.DecodeRuneInString(rest); *h != 0 {
		if hi, _ := utf16.EncodeRune(r); hi == *h {
			*h = 0
		}
	}
	return s.textHalves(u, rest, lone{}, reasoning)
}

// toolEvent marks u as a tool frame for the call named name.
func toolEvent(u *Update, name string) {
	u.Kind = KindTool
	u.Events = append(u.Events, phase.Event{Kind: phase.KindTool, Tool: name})
}

// fail records the stream's first error and reports it; later errors change nothing.
func (s *replyState) fail(u *Update, e *Error) {
	if u.Kind != KindMalformed {
		u.Kind = KindError
	}
	if s.err != nil {
		return
	}
	s.err = e
	s.calls.frozen = true
	u.Events = append(u.Events, phase.Event{Kind: phase.KindError, Error: e.Message})
}

// cutOff is why a call still open when the reply was cut off is not run.
const cutOff = "the reply was cut off before the call's arguments were complete"

// conclude ends the stream at the format's own end event: complete, unless an error came
// first. Calls still open become ready, or fail when the reply was cut off (finish length).
func (s *replyState) conclude(u *Update) {
	s.flushHalf(u, true)
	s.flushHalf(u, false)
	s.outcome = OutcomeComplete
	if s.err != nil {
		s.outcome = OutcomeError
	}
	u.Kind = kindOf(s.outcome)
	u.Calls = s.endCalls(u.Calls)
	if s.outcome == OutcomeComplete {
		u.Events = append(u.Events, phase.Event{Kind: phase.KindDone})
	}
}

func (s *replyState) endCalls(out []phase.CallEvent) []phase.CallEvent {
	switch {
	case s.err != nil:
		return s.calls.finish(false, s.err.Message, out)
	case s.finish == "length":
		return s.calls.finish(false, cutOff, out)
	}
	return s.calls.finish(true, "", out)
}

// End ends the stream as Decoder.End does, except that a finish reason alone does not make it
// complete: only the format's end event does.
func (s *replyState) End(cause error) Update {
	u := Update{Kind: KindIgnore}
	switch {
	case s.outcome != "":
		u.Kind = kindOf(s.outcome)
		return u
	}
	s.flushHalf(&u, true)
	s.flushHalf(&u, false)
	switch {
	case s.err != nil:
		s.outcome = OutcomeError
	case errors.Is(cause, context.Canceled):
		s.outcome = OutcomeStopped
		return u
	case cause != nil:
		s.outcome = OutcomeError
		s.fail(&u, asError(cause))
	case s.seen.notFormat(s.wire) != nil:
		s.outcome = OutcomeError
		s.fail(&u, s.seen.notFormat(s.wire))
	default:
		s.outcome = OutcomeTruncated
		s.fail(&u, &Error{Message: "The server closed the stream before finishing (no " + s.endEvent + ").", Cause: ErrTruncated})
	}
	u.Kind = kindOf(s.outcome)
	u.Calls = s.endCalls(u.Calls)
	return u
}

// Result is the reply so far; its Outcome is set once the stream has ended.
func (s *replyState) Result() Result {
	r := Result{
		Message: Message{
			Role: "assistant", Parts: ReplyParts(s.reasoning.String(), s.content.String(), s.calls.toolCalls()),
		},
		FinishReason: s.finish,
		FinishSaid:   s.said,
		Outcome:      s.outcome,
		Malformed:    s.malformed,
		Usage:        s.usage.result(),
	}
	if ids := s.calls.itemIDs(); len(s.replay) > 0 || ids != nil {
		r.Message.Native = &NativeReasoning{Wire: s.wire, Items: append([]json.RawMessage(nil), s.replay...), ItemIDs: ids}
	}
	if s.outcome == OutcomeError || s.outcome == OutcomeTruncated {
		r.Err = s.err
	}
	return r
}

// setUsage records the usage from the token counts the format reports; a total of 0 is the
// prompt's and the completion's.
func (s *replyState) setUsage(u Usage) {
	if u.TotalTokens == 0 {
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
	}
	s.usage.set(u)
}
