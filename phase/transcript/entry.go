package transcript

import (
	"slices"
	"strings"
	"time"

	"github.com/phasechat/phasechat/phase"
)

// Entry is one transcript item. Its Version grows with every change, so a renderer may cache
// what it drew by (entry, width, Version).
//
// While Streaming, Text and Reasoning only grow by appending: a renderer may render each
// complete markdown block once and re-wrap only the open tail. Every string but a card's ID is
// untrusted (the user's text too) and must be sanitised before the screen.
type Entry struct {
	role      Role
	text      string
	reasoning string
	cards     []Card
	parts     []Part // a reply's text runs and cards in the order the stream produced them
	files     []File // the files a prompt carried
	lines     int    // the user's text's line count, for folding
	focused   int    // the focused card's index plus one, focusWhole for the entry itself; noFocus else
	end       phase.End
	tally     *Tally // what the turn this reply ended used; nil when none is known
	streaming bool
	expanded  bool
	version   uint64
	index     int // the entry's place in its transcript
}

func (e *Entry) bump() { e.version++ }

// bumpCard bumps the entry for a change to its card c, which records the version.
func (e *Entry) bumpCard(c *Card) {
	e.bump()
	c.rev = e.version
}

// countLines counts a prompt's lines, for folding.
func (e *Entry) countLines() {
	if e.role == RoleUser {
		e.lines = strings.Count(strings.TrimRight(e.text, "\n"), "\n") + 1
	}
}

// card returns the card of call id, or nil.
func (e *Entry) card(id string) *Card {
	for i := range e.cards {
		if e.cards[i].call.ID == id {
			return &e.cards[i]
		}
	}
	return nil
}

// Role is who the entry is from.
func (e *Entry) Role() Role { return e.role }

// Text is the user's text, the reply's content so far, or the notice.
func (e *Entry) Text() string { return e.text }

// Reasoning is a reply's reasoning, shown dimmed and folded unless Expanded.
func (e *Entry) Reasoning() string { return e.reasoning }

// Parts are a reply's text and cards in the order the stream produced them: a run of text,
// a card, the text that came after it, and so on. Text runs are never empty and never
// adjacent; their concatenation is Text, and every card appears exactly once, in the order of
// Cards. An entry made whole by Add has its text first and then its cards. The slice is the
// entry's own: read it, do not keep it past the next change.
func (e *Entry) Parts() []Part { return e.parts }

// PartText is the text of a text part (a slice of Text, sharing its storage); "" for a card.
func (e *Entry) PartText(p Part) string {
	if p.card >= 0 {
		return ""
	}
	return e.text[p.from:p.to]
}

// Folded reports whether a user's prompt is long enough to be shown as one line until it is
// expanded (a large paste): more than FoldLines lines or FoldBytes bytes.
func (e *Entry) Folded() bool { return e.Foldable() && !e.expanded }

// Lines is how many lines a user's prompt has; 0 for other entries.
func (e *Entry) Lines() int { return e.lines }

// Foldable reports whether the entry is a prompt long enough to fold.
func (e *Entry) Foldable() bool {
	return e.role == RoleUser && (e.lines > FoldLines || len(e.text) > FoldBytes)
}

// FocusedCard is the index of the entry's focused card, or -1 when none of its cards is
// focused. At most one card or prompt of the whole transcript is focused.
func (e *Entry) FocusedCard() int {
	if e.focused > 0 {
		return e.focused - 1
	}
	return -1
}

// Focused reports whether the entry itself (a folded prompt, or one with files) is focused.
func (e *Entry) Focused() bool { return e.focused == focusWhole }

// Cards are the tool calls of a reply, in the order they started. The slice is the entry's
// own: read it, do not keep it past the next change.
func (e *Entry) Cards() []Card { return e.cards }

// Card returns the card of call id.
func (e *Entry) Card(id string) (Card, bool) {
	if c := e.card(id); c != nil {
		return *c, true
	}
	return Card{}, false
}

// End is how the reply ended; the zero value while it streams and when it is whole.
func (e *Entry) End() phase.End { return e.end }

// Mark is how the reply is marked for how it ended, when not normally: stopped (by the user, a
// signal, or the program's end), failed, or cut off.
func (e *Entry) Mark() Mark {
	switch e.end.Why {
	case phase.EndComplete:
		return MarkNone
	case phase.EndFailed:
		return MarkFailed
	case phase.EndCutOff:
		return MarkCutOff
	}
	return MarkStopped
}

// Note is why a reply failed or was cut off, shown under it (untrusted text).
func (e *Entry) Note() string { return e.end.Note }

// Streaming reports whether the text may still grow.
func (e *Entry) Streaming() bool { return e.streaming }

// Expanded reports whether the reasoning (of a reply) or the prompt (of a long one, or one
// with files: their details show) is unfolded.
func (e *Entry) Expanded() bool { return e.expanded }

// Version counts the entry's changes.
func (e *Entry) Version() uint64 { return e.version }

// Snapshot is a copy of e as it is now, which no later change to e reaches (its text, cards,
// focus or folding): it may be read on another goroutine while e goes on changing.
func (e *Entry) Snapshot() *Entry {
	c := *e
	c.cards = slices.Clone(e.cards)
	c.parts = slices.Clone(e.parts)
	return &c
}

// Card is one tool call of a reply: the state machine's latest snapshot of the call (its
// status, result, place in the approval and slot queues), and what only the screen needs:
// the arguments' summary, whether it is expanded, and while it runs its time and output.
// Nothing but the snapshot says where the call is.
type Card struct {
	call     phase.ToolCall
	summary  string
	elapsed  time.Duration // how long the tool has been running, while it runs
	output   string        // the last lines a running tool printed
	expanded bool
	rev      uint64 // the entry's version at the card's last change
}

// Rev changes whenever the card does (it is the entry's Version at the card's last change), so
// a renderer may cache a card's drawing by it.
func (c Card) Rev() uint64 { return c.rev }

// Call is the machine's latest snapshot of the call.
func (c Card) Call() phase.ToolCall { return c.call }

// ID is the call's id.
func (c Card) ID() string { return c.call.ID }

// Name is the tool's name.
func (c Card) Name() string { return c.call.Name }

// Status is the call's status.
func (c Card) Status() phase.CallStatus { return c.call.Status }

// Args is the argument JSON text so far.
func (c Card) Args() string { return c.call.ArgsText }

// ArgsBytes is the size of the argument text so far, shown while pending.
func (c Card) ArgsBytes() int { return len(c.call.ArgsText) }

// Summary is a one-line summary of the decoded arguments once ready, e.g. path=README.md.
func (c Card) Summary() string { return c.summary }

// Result is the tool's output, or why the call failed or did not run.
func (c Card) Result() string { return c.call.Result.Output }

// IsError reports whether the call ended without a result the tool gave as a success
// (error, declined, interrupted).
func (c Card) IsError() bool { return c.call.Status.Failed() }

// Duration is how long the tool ran; shown when it is over.
func (c Card) Duration() time.Duration { return c.call.Result.Duration }

// Asking reports whether the call waits for the user's approval.
func (c Card) Asking() bool { return c.call.Status == phase.CallAsking }

// Queued is how many tools are running while the call waits for a free slot to start; 0 when
// it does not wait. A queued call has not started: no time has run on it yet.
func (c Card) Queued() int {
	if c.call.Status != phase.CallQueued {
		return 0
	}
	return max(1, c.call.QueuedBehind)
}

// Expanded reports whether the arguments and the result are shown in full.
func (c Card) Expanded() bool { return c.expanded }

// Part is one piece of a reply: a run of its text or one of its cards.
type Part struct {
	card     int // the card's index in Cards; -1 for text
	from, to int // a text run's bytes in Text
}

// IsCard reports whether the part is a card.
func (p Part) IsCard() bool { return p.card >= 0 }

// Card is the card's index in the entry's Cards; -1 for a text part.
func (p Part) Card() int { return p.card }

// Span is a text part's byte range in the entry's Text.
func (p Part) Span() (from, to int) { return p.from, p.to }

// AskPlace is the call's place among the approvals waiting (1 is the one y answers) and how
// many wait; 0, 0 when it is not asking.
func (c Card) AskPlace() (place, of int) { return c.call.AskPlace, c.call.AskOf }

// Declined reports whether the user declined to run the call (the model is told so): a
// choice, not a failure.
func (c Card) Declined() bool { return c.call.Status == phase.CallDeclined }

// Elapsed is how long the tool has been running, as of the engine's last clock tick; 0 when
// it does not run.
func (c Card) Elapsed() time.Duration {
	if c.call.Status != phase.CallRunning {
		return 0
	}
	return c.elapsed
}

// Output is the last lines a running tool printed so far (untrusted); "" once it ended.
func (c Card) Output() string {
	if c.call.Status != phase.CallRunning {
		return ""
	}
	return c.output
}
