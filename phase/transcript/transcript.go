// Package transcript is the conversation as the screen and the line mode show it: entries (a
// prompt, a reply with its reasoning and tool cards, a notice) in order. It is the one owner of
// that state. A Transcript is changed only through its methods, and every change to an entry
// bumps that entry's version, which the renderer's cache keys on; an *Entry and a Card have
// getters only, so whoever is handed them (the view, the line mode) can read but not write.
//
// A card holds the tool-call state machine's snapshot of its call (phase.ToolCall), so its
// status is the call's status by construction: the engine hands the card each snapshot after
// it applies an event to the machine. Like package phase, it does no I/O.
package transcript

import (
	"slices"
	"time"

	"github.com/phasechat/phasechat/phase"
)

// Role says who an entry is from.
type Role uint8

const (
	RoleUser      Role = iota // the user's prompt: shown after "› ", never as markdown
	RoleAssistant             // a reply: markdown, reasoning, tool cards, mark
	RoleNotice                // a line from phasechat itself: dim
)

// Mark is how a reply ended when it did not end normally. The partial reply is always kept.
type Mark uint8

const (
	MarkNone    Mark = iota
	MarkStopped      // the user pressed Esc: "■ Stopped — the partial reply is kept."
	MarkFailed       // the request failed: "✗ <Note>"
	MarkCutOff       // the server cut the reply off (output limit, content filter): "▲ <Note>"
)

// Transcript is the ordered list of entries. The zero value is empty and ready to use. Not safe
// for concurrent use.
type Transcript struct {
	entries []*Entry
	focus   *Entry // the entry holding the focused card or prompt; nil when none is focused
	journal journal
}

// FoldLines is how many lines a prompt may have before it is shown folded (one line saying
// how many it has) until expanded: a large paste should not push the reply off the screen.
// FoldBytes does the same for a prompt of few but long lines (a pasted minified file).
const (
	FoldLines = 12
	FoldBytes = 4 << 10
)

// Focus values of an entry besides a card's index.
const (
	noFocus    = 0
	focusWhole = -1 // the entry itself: a folded prompt, or one with files
)

// Entries returns the entries in order. The slice is the transcript's own, clipped so that an
// append to it copies; its entries can be read but not changed.
func (t *Transcript) Entries() []*Entry { return slices.Clip(t.entries) }

// Len is the number of entries.
func (t *Transcript) Len() int { return len(t.entries) }

// Last returns the last entry, or nil when there is none.
func (t *Transcript) Last() *Entry {
	if len(t.entries) == 0 {
		return nil
	}
	return t.entries[len(t.entries)-1]
}

// Add appends a new entry made from s and returns it.
func (t *Transcript) Add(s Spec) *Entry {
	e := &Entry{role: s.Role, text: s.Text, reasoning: s.Reasoning, end: s.End,
		streaming: s.Streaming, expanded: s.Expanded, index: len(t.entries)}
	if s.Role == RoleUser && len(s.Files) > 0 {
		e.files = slices.Clone(s.Files)
	}
	e.countLines()
	if s.Text != "" {
		e.parts = append(e.parts, Part{card: -1, to: len(s.Text)})
	}
	for _, c := range s.Cards {
		e.parts = append(e.parts, Part{card: len(e.cards)})
		e.cards = append(e.cards, Card{call: c.Call, summary: c.Summary, expanded: c.Expanded})
	}
	t.entries = append(t.entries, e)
	t.noteEntry(EntryAdded, e)
	return e
}

// Truncate keeps the first n entries.
func (t *Transcript) Truncate(n int) {
	if n < len(t.entries) {
		if t.focus != nil && slices.Contains(t.entries[n:], t.focus) {
			t.focus = nil
		}
		clear(t.entries[n:])
		t.entries = t.entries[:n]
		t.journal.note(Change{Kind: EntriesRemoved, Index: n, Card: -1})
	}
}

// SetReply replaces a reply's text and reasoning with the text so far. While the entry streams
// both only grow by appending (see Entry): text that extends the old goes into the last part
// when that is text, or into a new text part after the cards that came since. Text that does
// not extend the old replaces every text part with one, before the cards.
func (t *Transcript) SetReply(e *Entry, text, reasoning string) {
	if e.text == text && e.reasoning == reasoning {
		return
	}
	old := e.text
	e.text, e.reasoning = text, reasoning
	e.countLines()
	switch {
	case len(text) == len(old):
	case len(text) > len(old) && text[:len(old)] == old:
		if n := len(e.parts); n > 0 && !e.parts[n-1].IsCard() {
			e.parts[n-1].to = len(text)
		} else {
			e.parts = append(e.parts, Part{card: -1, from: len(old), to: len(text)})
		}
	default:
		parts := e.parts[:0]
		if text != "" {
			parts = append(parts, Part{card: -1, to: len(text)})
		}
		for i := range e.cards {
			parts = append(parts, Part{card: i})
		}
		e.parts = parts
	}
	e.bump()
	t.noteEntry(TextChanged, e)
}

// EndStreaming says the entry's text is final.
func (t *Transcript) EndStreaming(e *Entry) {
	if e.streaming {
		e.streaming = false
		e.bump()
		t.noteEntry(EntryFinished, e)
	}
}

// SetEnd says how a reply ended.
func (t *Transcript) SetEnd(e *Entry, end phase.End) {
	e.end = end
	e.bump()
	t.noteEntry(EndChanged, e)
}

// ToggleReasoning folds or unfolds the entry's reasoning, or a prompt (see Expandable).
func (t *Transcript) ToggleReasoning(e *Entry) {
	e.expanded = !e.expanded
	e.bump()
}

// ToggleCard expands or folds the entry's i-th card.
func (t *Transcript) ToggleCard(e *Entry, i int) {
	e.cards[i].expanded = !e.cards[i].expanded
	e.bumpCard(&e.cards[i])
}

// SetCall gives the card of call.ID the machine's latest snapshot of the call, adding the card
// (at the end) when the entry has none for it yet. A snapshot equal to the card's changes
// nothing. A call that no longer runs drops its running time and output.
func (t *Transcript) SetCall(e *Entry, call phase.ToolCall) {
	c := e.card(call.ID)
	if c == nil {
		e.parts = append(e.parts, Part{card: len(e.cards)})
		e.cards = append(e.cards, Card{call: call})
		e.bumpCard(&e.cards[len(e.cards)-1])
		t.noteCard(e, &e.cards[len(e.cards)-1])
		return
	}
	if sameCall(c.call, call) {
		return
	}
	c.call = call
	if call.Status != phase.CallRunning {
		c.elapsed, c.output = 0, ""
	}
	e.bumpCard(c)
	t.noteCard(e, c)
}

// sameCall reports whether two snapshots of one call show the same. Args is not compared:
// it is parsed once from ArgsText, which is.
func sameCall(a, b phase.ToolCall) bool {
	return a.Status == b.Status && a.ArgsText == b.ArgsText && a.Name == b.Name && a.Result == b.Result &&
		a.NotRun == b.NotRun && a.Interruption == b.Interruption && a.Started.Equal(b.Started) &&
		a.AskPlace == b.AskPlace && a.AskOf == b.AskOf && a.QueuedBehind == b.QueuedBehind
}

// SetSummary sets the one-line summary of a card's decoded arguments (untrusted text).
func (t *Transcript) SetSummary(e *Entry, id, summary string) {
	if c := e.card(id); c != nil && c.summary != summary {
		c.summary = summary
		e.bumpCard(c)
		t.noteCard(e, c)
	}
}

// SetElapsed says how long a card's running tool has been running; changes under a second
// are not shown and do not bump the entry. Ignored for a call that does not run.
func (t *Transcript) SetElapsed(e *Entry, id string, d time.Duration) {
	if c := e.card(id); c != nil && c.call.Status == phase.CallRunning && c.elapsed.Truncate(time.Second) != d.Truncate(time.Second) {
		c.elapsed = d
		e.bumpCard(c)
		t.noteCard(e, c)
	}
}

// SetOutput replaces the last lines a card's running tool printed (untrusted text). Ignored
// for a call that does not run.
func (t *Transcript) SetOutput(e *Entry, id, lines string) {
	if c := e.card(id); c != nil && c.call.Status == phase.CallRunning && c.output != lines {
		c.output = lines
		e.bumpCard(c)
		t.noteCard(e, c)
	}
}

// Spec is what a new entry holds; see Transcript.Add.
type Spec struct {
	Role      Role
	Text      string
	Reasoning string
	Cards     []CardSpec
	End       phase.End
	Streaming bool
	Expanded  bool
	Files     []File // a prompt's files
}

// CardSpec is what a new card holds. A Spec's cards come after its text; a reply whose text
// and cards interleave is built as it streamed (SetReply, SetCall).
type CardSpec struct {
	Call     phase.ToolCall
	Summary  string
	Expanded bool
}
