package tui

import (
	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view"
)

// binding is one key of the full-screen chat as the help shows it: the keys, what they do in
// a word or two on the help line (does) and in full in the key overlay (long), how much the
// help line needs it (rank: when the line is narrow the highest ranks are left off first) and
// when it does something (live; nil: always). The key handlers (press, everydayKey, draftKey,
// pickKey) give the keys their meaning; the help line and the overlay read them from here.
type binding struct {
	keys, does, long string
	rank             int
	live             func(k keyState) bool
}

// keyState is what the live tests read: the model, and what costs too much to ask more than
// once a frame.
type keyState struct {
	*Model
	scrollable bool // the transcript is taller than its window
}

// keyMap is every key of the chat, in the order the help line shows the live ones.
var keyMap = []binding{
	{keys: "y", does: "run", long: "run the tool the approval question asks about", live: keyState.asking},
	{keys: "n", does: "decline", long: "decline it (the model is told)", live: keyState.asking},
	{keys: "A", does: "always allow", long: "run it, and this tool again without asking this session", rank: 2, live: keyState.asking},
	{keys: "enter", does: "send", long: "send the message", live: keyState.composing},
	{keys: "enter", does: "retry", long: "retry the failed request (Retry has the focus)", live: keyState.onRetry},
	{keys: "tab", does: "composer", long: "from Retry to the composer", rank: 1, live: keyState.onRetry},
	{keys: "shift+tab", does: "retry", long: "from the composer back to Retry", rank: 3, live: keyState.composerInError},
	{keys: "tab", does: "complete", long: "complete the command being typed", rank: 1, live: keyState.typingCommand},
	{keys: "esc", does: "stop", long: "stop the reply and its tools; the partial reply is kept", live: keyState.streaming},
	{keys: "pgup/pgdn", does: "scroll", long: "scroll the transcript a page (also the mouse wheel); pgdn at the end follows the reply again", rank: 2, live: keyState.canScroll},
	{keys: "home/end", does: "top/end", long: "the transcript's top, its end (following the reply again)", rank: 6, live: func(m keyState) bool { return m.canScroll() && m.homeScrolls() }},
	{keys: "ctrl+home/end", does: "top/end", long: "the same while the composer holds text (home/end move in its line)", rank: 6, live: func(m keyState) bool { return m.canScroll() && !m.homeScrolls() }},
	{keys: "ctrl+o", does: "expand", long: "expand or fold the selected card or prompt; with none selected, the latest tool card, folded prompt or reasoning", rank: 2, live: keyState.hasDetails},
	{keys: "alt+↑/↓", does: "select card", long: "select a tool card or a folded prompt (also ctrl+↑/↓); ctrl+o expands it, typing or esc leaves it", rank: 4, live: keyState.hasSelectable},
	{keys: "ctrl+j", does: "newline", long: "a new line in the message (also alt+enter)", rank: 3, live: keyState.typing},
	{keys: "ctrl+r", does: "regenerate", long: "ask for the last reply again", rank: 4, live: keyState.canRegenerate},
	{keys: "up/down", does: "history", long: "earlier messages, in an empty composer", rank: 7, live: keyState.hasHistory},
	{keys: "ctrl+p", does: "model", long: "switch the model", rank: 3, live: func(m keyState) bool { return m.models != nil }},
	{keys: "ctrl+y", does: "copy", long: "copy the last reply (/copy N copies its Nth code block)", rank: 8, live: keyState.hasReply},
	{keys: "ctrl+s", does: "sessions", long: "go back to a saved conversation", rank: 8, live: func(m keyState) bool { return m.ed.convs != nil }},
	{keys: "ctrl+g", does: "editor", long: "edit the message in $EDITOR (also ctrl+x ctrl+e)", rank: 9, live: keyState.composerEnabled},
	{keys: "ctrl+c", does: "quit", long: "quit, stopping the reply first (with text in the composer the first press clears it)", rank: 1},
	{keys: "?", does: "keys", long: "this list, when the composer is empty (f1 always)", rank: 1, live: keyState.composerEmpty},
	{keys: "f1", does: "keys", long: "this list", rank: 1, live: func(m keyState) bool { return !m.composerEmpty() }},
}

// help lists the keys live now, for the help line, ranked (see binding); scrollable says the
// transcript is taller than its window.
func (m *Model) help(scrollable bool) []view.Key {
	now := keyState{m, scrollable}
	keys := make([]view.Key, 0, 8)
	for _, b := range keyMap {
		if b.live == nil || b.live(now) {
			keys = append(keys, view.Key{Keys: b.keys, Does: b.does, Rank: b.rank})
		}
	}
	return keys
}

// allKeys lists every key with what it does, for the key overlay.
func allKeys() []view.Key {
	keys := make([]view.Key, 0, len(keyMap))
	for _, b := range keyMap {
		keys = append(keys, view.Key{Keys: b.keys, Does: b.long, Rank: b.rank})
	}
	return keys
}

func (m *Model) asking() bool    { return m.chat.Asking() }
func (m *Model) streaming() bool { return m.chat.State.Phase.Streaming() }

// composing: Enter sends what the composer holds.
func (m *Model) composing() bool {
	return m.composerEnabled() && m.focus() == phase.FocusComposer
}

// typing: the composer takes text, to send now or (while a reply streams) once it ends. While
// an approval question waits, its keys come first: a draft still takes the rest (drafting),
// but the help and Home/End speak for the question.
func (m *Model) typing() bool { return m.composing() || m.drafting() && !m.chat.Asking() }

func (m *Model) onRetry() bool { return m.focus() == phase.FocusRetry }

func (m *Model) composerInError() bool {
	return m.chat.State.Phase == phase.Error && m.focus() == phase.FocusComposer
}

func (m *Model) typingCommand() bool { return m.composing() && isCommandWord(m.composerText) }

func (m *Model) canRegenerate() bool {
	return m.chat.CanRegenerate() && (m.composing() || m.onRetry())
}

func (m *Model) hasHistory() bool { return m.composing() && len(m.ed.history) > 0 }

func (m *Model) hasReply() bool { return lastReply(m.chat.Entries()) != nil }

func (m *Model) composerEmpty() bool { return m.composerText == "" }

// homeScrolls: Home and End move the transcript, not the cursor in the composer's line, because
// the composer holds no text (or takes no keys).
func (m *Model) homeScrolls() bool { return m.composerEmpty() || !m.typing() }

// canScroll: the transcript is taller than its window (or is scrolled up already).
func (k keyState) canScroll() bool { return !k.inline.on && (k.scrollUp > 0 || k.scrollable) }

// hasDetails: some entry has a tool card, a folded prompt or reasoning that Ctrl+O expands.
func (k keyState) hasDetails() bool { return k.keyFacts() != 0 }

// hasSelectable: some entry has a tool card or a folded prompt the card keys can select.
func (k keyState) hasSelectable() bool { return k.keyFacts()&(hasCards|isFoldable) != 0 }

// entryFacts are what an entry has that a key acts on.
type entryFacts uint8

const (
	hasCards entryFacts = 1 << iota
	hasReasoning
	isFoldable
)

func factsOf(e *transcript.Entry) entryFacts {
	var f entryFacts
	if len(e.Cards()) > 0 {
		f |= hasCards
	}
	if e.Reasoning() != "" {
		f |= hasReasoning
	}
	if e.Foldable() {
		f |= isFoldable
	}
	return f
}

// factsMemo answers what the transcript's entries have, together, without walking the whole
// transcript per frame: cards and reasoning are only added to the newest entries (the reply
// streaming and the notices after it), so the answer for all but the last few entries is kept
// and extended as entries are added, and started again when the transcript is cut or
// replaced (it gets shorter, or its first entry changes).
type factsMemo struct {
	first *transcript.Entry
	n     int        // the entries the answer covers
	older entryFacts // their facts, together
}

const factsTail = 4

func (d *factsMemo) of(c *chat.Chat) entryFacts {
	entries := c.Entries()
	if len(entries) == 0 {
		return 0
	}
	split := max(0, len(entries)-factsTail)
	if d.first != entries[0] || split < d.n {
		d.first, d.n, d.older = entries[0], 0, 0
	}
	for _, e := range entries[d.n:split] {
		d.older |= factsOf(e)
	}
	d.n = split
	f := d.older
	for _, e := range entries[split:] {
		f |= factsOf(e)
	}
	return f
}
