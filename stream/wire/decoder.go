package wire

import (
	"context"
	"errors"
	"strings"
	"unicode/utf16"
	"unsafe"

	"github.com/phasechat/phasechat/phase"
)

// Kind classifies a frame, by JSON type and not by truthiness.
type Kind string

const (
	KindText      Kind = "text"      // content or reasoning (possibly empty)
	KindTool      Kind = "tool"      // tool-call fragments (possibly with content too)
	KindError     Kind = "error"     // `event: error`, a top-level error object, or a failed end
	KindDone      Kind = "done"      // [DONE], or an end that completes the stream
	KindMalformed Kind = "malformed" // a payload that is not a JSON object: counted, skipped
	KindIgnore    Kind = "ignore"    // anything else: role-only, finish_reason, usage, filters
)

// Update is what one frame (or the end of the stream) means. Fold Events into phase.Reduce
// and apply Calls to phase.ToolCalls, each in order.
type Update struct {
	N      int   // 1-based frame number; 0 for the end-of-stream update
	Frame  Frame // the frame; zero for the end-of-stream update
	Kind   Kind
	Events []phase.Event
	Calls  []phase.CallEvent // start, delta, ready and (for a failed stream) error only
	Err    *Error            // the stream's error, on the Update whose events report it
	// Kept is how many bytes the frame added to what the reply keeps to send back and shows
	// in no event (signatures, redacted thinking, reasoning items): they count toward the
	// reply's size as its text does.
	Kept int
	// Usage is the request's usage as the server reported it so far, on the update of the
	// frame that reported it (or changed it); nil on every other update.
	Usage *Usage
}

// Outcome is how a stream ended (docs/architecture.md, Outcomes).
type Outcome string

const (
	OutcomeComplete  Outcome = "complete"  // finish_reason or [DONE] seen
	OutcomeTruncated Outcome = "truncated" // the connection ended cleanly with neither
	OutcomeError     Outcome = "error"     // an error frame, HTTP or network error, or a stall
	OutcomeStopped   Outcome = "stopped"   // the caller cancelled
)

// Result is everything a stream said.
type Result struct {
	Message      Message // role assistant; ToolCalls in index order
	FinishReason string  // the last non-null finish_reason
	// FinishSaid is how the format itself said FinishReason (field and value, e.g.
	// "stop_reason max_tokens"); "" for Chat Completions, whose finish_reason it is.
	FinishSaid string
	Usage      *Usage  // the last usage seen, never summed; nil if none
	Outcome    Outcome // empty until the stream has ended
	Err        *Error  // set for OutcomeError and OutcomeTruncated only
	Malformed  int     // payloads skipped because they were not JSON objects
	// Notice is something the client learnt about the server while sending the request,
	// said once to the user (e.g. NoticeStreamOptions); "" when nothing.
	Notice string
}

// Decoder turns frames into Updates and reassembles the reply. It is pure: no I/O, no clock.
// The zero value is ready to use. Not safe for concurrent use.
type Decoder struct {
	n         int
	asm       assembler
	content   gathered
	reasoning gathered
	field     string // the reasoning field the stream used
	finish    string
	usage     usageSeen
	err       *Error
	outcome   Outcome // set once, by [DONE] or End
	malformed int
	// highContent and highReasoning hold a high surrogate half that ended the last delta of
	// the text, to be joined with the low half the next one starts with (0: none).
	highContent, highReasoning rune
	ch                         wireChunk // the chunk being decoded, reused
	pools                      chunkPools
	lend                       lender
	seen                       formatSeen
}

// NewDecoder returns a decoder for one stream.
func NewDecoder() *Decoder { return &Decoder{} }

// Frame decodes one frame. Frames after the stream has ended are ignored.
func (d *Decoder) Frame(f Frame) Update {
	u := d.frame(f)
	d.lend.keep(&u)
	return u
}

func (d *Decoder) frame(f Frame) Update {
	d.n++
	u := Update{N: d.n, Frame: f, Kind: KindIgnore}
	d.lend.start(&u)
	if d.outcome != "" {
		return u
	}
	if !d.seen.own {
		d.seen.see(WireChat, f)
	}
	data := unsafe.Slice(unsafe.StringData(f.Data), len(f.Data)) // read-only view
	switch {
	case strings.TrimSpace(f.Data) == "[DONE]":
		u.Kind = KindDone
		d.conclude(&u)
		return u
	case f.Event == "error":
		u.Kind = KindError
		d.fail(&u, serverError(data))
		return u
	case f.Event == "message_start":
		return d.unsupported(u)
	}
	if !startsObject(f.Data) {
		return d.skip(u)
	}
	d.ch = wireChunk{}
	ch := &d.ch
	if !decodeChunk(f.Data, ch, &d.pools) {
		return d.skip(u)
	}
	if ch.Type == "message_start" && ch.Choices == nil {
		return d.unsupported(u)
	}
	d.chunk(ch, &u)
	if len(ch.Error) > 0 && string(ch.Error) != "null" {
		u.Kind = KindError
		d.fail(&u, serverError(ch.Error))
	}
	return u
}

// startsObject reports whether data's first byte after JSON whitespace is '{'.
func startsObject(data string) bool {
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
		case '{':
			return true
		default:
			return false
		}
	}
	return false
}

func (d *Decoder) skip(u Update) Update {
	d.malformed++
	u.Kind = KindMalformed
	return u
}

// unsupported ends a stream decoded as Chat Completions at an Anthropic Messages event:
// nothing after it can be read.
func (d *Decoder) unsupported(u Update) Update {
	u.Kind = KindError
	d.fail(&u, &Error{
		Message: "Unsupported wire format: this is an Anthropic Messages stream, read as Chat " +
			"Completions (choose the anthropic wire format: --wire anthropic)",
		Cause: ErrUnsupportedFormat,
	})
	d.outcome = OutcomeError
	u.Calls = d.endCalls(u.Calls)
	return u
}

// chunk applies a decoded chunk: usage, then choice 0's reasoning, content, tool-call
// fragments and finish_reason, in that order. Other choices are ignored (we ask for n=1).
func (d *Decoder) chunk(ch *wireChunk, u *Update) {
	if ch.Usage != nil {
		d.usage.set(ch.Usage.usage())
		d.usage.report(u)
	}
	var choice *wireChoice
	for i := range ch.Choices {
		if c := &ch.Choices[i]; !c.Index.Set || c.Index.N == 0 {
			choice = c
			break
		}
	}
	if choice == nil {
		return
	}
	delta := &choice.Delta
	if r := delta.reasoning(); r.Set {
		d.text(u, r.S, true, r.lone)
		if f := delta.reasoningField(); f != "" {
			d.field = f
		}
	}
	for _, p := range delta.Content.Parts {
		d.text(u, p.Text, p.Reasoning, p.lone)
	}
	if delta.Content.Set && len(delta.Content.Parts) == 0 {
		u.Kind = KindText // an empty block list: still a text frame
	}
	for i := range delta.ToolCalls {
		d.fragment(u, &delta.ToolCalls[i])
	}
	if f, ok := delta.legacyCall(); ok {
		d.fragment(u, &f)
	}
	if fr := choice.FinishReason; fr.S != "" {
		d.finish = fr.S
		u.Calls = d.asm.over(nil, u.Calls)
	}
}

func (d *Decoder) fragment(u *Update, f *wireToolCall) {
	var c *call
	c, u.Calls = d.asm.fragment(f, u.Calls)
	ev := phase.Event{Kind: phase.KindTool}
	if c != nil {
		ev.Tool = c.name
	}
	u.Events = append(u.Events, ev)
	u.Kind = KindTool
}

// text applies one content or reasoning delta. An empty delta still moves the phase (a
// KindText event with no text); a non-empty one also shows the tool calls before it are over.
// A high surrogate half that ends the delta is held back until the next delta of the same
// text shows whether it brings the low half (a server that cuts its text between the halves
// of a UTF-16 pair and escapes each piece on its own).
func (d *Decoder) text(u *Update, s string, reasoning bool, halves lone) {
	if u.Kind != KindTool {
		u.Kind = KindText
	}
	kind, high, text := phase.KindText, &d.highContent, &d.content
	if reasoning {
		kind, high, text = phase.KindReasoning, &d.highReasoning, &d.reasoning
	}
	s = joinHalves(s, high, halves)
	text.add(s)
	if s != "" {
		u.Calls = d.asm.over(nil, u.Calls)
	}
	u.Events = append(u.Events, phase.Event{Kind: kind, Delta: s})
}

// joinHalves returns s with *high, the high half held back from the previous delta, joined
// to the low half s starts with (or shown as U+FFFD when s does not start with one), and with
// its own trailing high half held back in *high.
func joinHalves(s string, high *rune, halves lone) string {
	if *high != 0 {
		if halves.low != 0 {
			s = string(utf16.DecodeRune(*high, halves.low)) + s[len("\uFFFD"):]
		} else {
			s = "\uFFFD" + s
		}
		*high = 0
	}
	if halves.high != 0 {
		*high = halves.high
		s = s[:len(s)-len("\uFFFD")]
	}
	return s
}

// flushHalves shows a high half still held back at the end of the stream as U+FFFD, without
// moving any tool call (the end decides that).
func (d *Decoder) flushHalves(u *Update) {
	for _, t := range []struct {
		high *rune
		text *gathered
		kind phase.Kind
	}{{&d.highReasoning, &d.reasoning, phase.KindReasoning}, {&d.highContent, &d.content, phase.KindText}} {
		if *t.high != 0 {
			*t.high = 0
			t.text.add("\uFFFD")
			u.Events = append(u.Events, phase.Event{Kind: t.kind, Delta: "\uFFFD"})
		}
	}
}

// fail records the stream's first error and reports it; later errors change nothing.
func (d *Decoder) fail(u *Update, e *Error) {
	if d.err != nil {
		return
	}
	d.err = e
	d.asm.frozen = true
	u.Err = e
	u.Events = append(u.Events, phase.Event{Kind: phase.KindError, Error: e.Message})
}

// conclude ends the stream at [DONE].
func (d *Decoder) conclude(u *Update) {
	d.flushHalves(u)
	d.outcome = OutcomeComplete
	if d.err != nil {
		d.outcome = OutcomeError
	}
	u.Calls = d.endCalls(u.Calls)
	u.Events = append(u.Events, phase.Event{Kind: phase.KindDone})
}

// endCalls readies every open call of a complete stream, and fails the started ones of a
// failed stream (they were never dispatched, and the reply will be retried) or of a reply cut
// off by the server (see CutOff): a call whose arguments were still open then is never run.
func (d *Decoder) endCalls(out []phase.CallEvent) []phase.CallEvent {
	if why := CutOff(d.finish); d.err == nil && why != "" {
		return d.asm.finish(false, why, out) // its arguments may be cut short
	}
	if d.err == nil {
		return d.asm.finish(true, "", out)
	}
	return d.asm.finish(false, d.err.Message, out)
}

// End ends the stream. cause is nil for a clean end of input, context.Canceled (or an error
// wrapping it) when the caller stopped it, and otherwise what broke it (an *Error is kept
// as is). The outcome is, in order: error if the stream carried an error; stopped on a
// cancel (nothing is emitted: no call becomes ready); complete if a finish_reason was seen
// (remaining calls become ready, KindDone); error if cause is non-nil; else truncated. After
// [DONE] or a first End, End changes nothing and emits nothing.
func (d *Decoder) End(cause error) Update {
	u := Update{Kind: KindIgnore}
	switch {
	case d.outcome != "":
		u.Kind = kindOf(d.outcome)
		return u
	case d.err != nil:
		d.outcome = OutcomeError
	case errors.Is(cause, context.Canceled):
		d.outcome = OutcomeStopped
		return u
	}
	d.flushHalves(&u)
	switch {
	case d.outcome != "":
	case d.finish != "":
		d.outcome = OutcomeComplete
		u.Events = append(u.Events, phase.Event{Kind: phase.KindDone})
	case cause != nil:
		d.outcome = OutcomeError
		d.fail(&u, asError(cause))
	case d.seen.notFormat(WireChat) != nil:
		d.outcome = OutcomeError
		d.fail(&u, d.seen.notFormat(WireChat))
	default:
		d.outcome = OutcomeTruncated
		d.fail(&u, &Error{Message: MsgTruncated, Cause: ErrTruncated})
	}
	u.Kind = kindOf(d.outcome)
	u.Calls = d.endCalls(u.Calls)
	return u
}

func kindOf(o Outcome) Kind {
	switch o {
	case OutcomeComplete:
		return KindDone
	case OutcomeStopped:
		return KindIgnore
	}
	return KindError
}

// asError returns err as an *Error, wrapping an error of another type.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Message: "The stream failed: " + err.Error(), Cause: err}
}

// Result is the reply so far; its Outcome is set once the stream has ended.
func (d *Decoder) Result() Result {
	r := Result{
		Message: Message{
			Role: "assistant", Parts: ReplyParts(d.reasoning.String(), d.content.String(), d.asm.toolCalls()),
			ReasoningField: d.field,
		},
		FinishReason: d.finish,
		Outcome:      d.outcome,
		Malformed:    d.malformed,
		Usage:        d.usage.result(),
	}
	if d.outcome == OutcomeError || d.outcome == OutcomeTruncated {
		r.Err = d.err
	}
	return r
}
