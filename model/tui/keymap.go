package tui

import (
	"reflect"

	"charm.land/bubbles/v2/key"

	"github.com/phasechat/phasechat/model/chat"
	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
	"github.com/phasechat/phasechat/view"
)

// binding is one key of the full-screen chat. The key handlers match presses against its
// key.Binding and nothing else; its help (key and a word or two) is the help line's, long is
// what it does in full for the key list and /help, rank is how much the help line needs it
// (when the line is narrow the highest ranks are left off first) and live says when it does
// something now (nil: always). A binding without help is named in another's (pgdown in
// pgup's "pgup/pgdn"); fullScreen marks the keys that move the app's own transcript view,
// which the inline mode leaves to the terminal.
type binding struct {
	key.Binding
	long       string
	rank       int
	live       func(k keyState) bool
	fullScreen bool
}

// keyState is what the live rules read: the model, and what costs too much to ask more than
// once a frame.
type keyState struct {
	*Model
	scrollable bool // the transcript is taller than its window
}

// keyMap is every key of the chat; its fields are in the order the help line and the key
// list show them.
type keyMap struct {
	Approve, Decline, Always                         binding
	AttachDropped                                    binding
	Send, Retry, ToComposer, ToRetry, Complete, Stop binding
	Queue, RunAfterReply, SendQueued, EditQueued     binding
	PageUp, PageDown, Home, End, CtrlHome, CtrlEnd   binding
	Expand, SelectUp, SelectDown                     binding
	Newline, Regenerate, Earlier, Later              binding
	Model, Copy, Sessions, PasteImage                binding
	Editor, EditorChord, EditorChordEnd              binding // ctrl+g; ctrl+x then ctrl+e
	Quit, Suspend, KeysHere, Keys                    binding
	CloseList, ListUp, ListDown                      binding
}

// helped is a binding of keys whose help line names it help and says it does does.
func helped(help, does string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, does))
}

// named is a binding of keys named in another binding's help.
func named(keys ...string) key.Binding { return key.NewBinding(key.WithKeys(keys...)) }

// keys is the chat's key map.
var keys = keyMap{
	Approve: binding{Binding: helped("y", "run", "y", "Y"), long: "run the tool the approval question asks about", live: keyState.asking},
	Decline: binding{Binding: helped("n", "decline", "n", "N"), long: "decline it (the model is told)", live: keyState.asking},
	Always:  binding{Binding: helped("A", "always allow", "A", "shift+a"), long: "run it, and this tool again without asking this session", rank: 2, live: keyState.asking},

	AttachDropped: binding{Binding: helped("y", "attach", "y", "Y"), long: "attach the file dragged into the terminal (any other key pastes its path as text)", live: keyState.askingDrop},

	Send:          binding{Binding: helped("enter", "send", "enter"), long: "send the message", live: keyState.canSend},
	Retry:         binding{Binding: helped("enter", "retry", "enter"), long: "retry the failed request (Retry has the focus)", live: keyState.onRetry},
	ToComposer:    binding{Binding: helped("tab", "composer", "tab"), long: "from Retry to the composer", rank: 1, live: keyState.onRetry},
	ToRetry:       binding{Binding: helped("shift+tab", "retry", "shift+tab"), long: "from the composer back to Retry", rank: 3, live: keyState.composerInError},
	Complete:      binding{Binding: helped("tab", "complete", "tab"), long: "complete the command or the @file being typed", rank: 1, live: keyState.typingCompletable},
	Stop:          binding{Binding: helped("esc", "stop", "esc"), long: "stop the reply and its tools; the partial reply is kept", live: keyState.streaming},
	Queue:         binding{Binding: helped("enter", "queue", "enter"), long: "while a reply streams: queue the message, sent when the turn is over (after its tools)", live: keyState.canQueue},
	RunAfterReply: binding{Binding: helped("enter", "run after reply", "enter"), long: "while a reply streams, on a command: run it after the reply and the messages queued before it (/queue, /help and /usage run at once)", live: keyState.canRunAfterReply},
	SendQueued:    binding{Binding: helped("enter", "send queued", "enter"), long: "in the empty composer, after an error or a stop: send the queued messages", live: keyState.canSendQueued},
	EditQueued:    binding{Binding: helped("↑", "edit queued", "up"), long: "in the empty composer: take the newest queued message back to edit (ctrl+c drops it)", rank: 2, live: keyState.canEditQueued},

	PageUp:   binding{Binding: helped("pgup/pgdn", "scroll", "pgup"), long: "scroll the transcript a page (also the mouse wheel); pgdn at the end follows the reply again", rank: 2, live: keyState.canScroll, fullScreen: true},
	PageDown: binding{Binding: named("pgdown"), fullScreen: true},
	Home:     binding{Binding: helped("home/end", "top/end", "home"), long: "the transcript's top, its end (following the reply again)", rank: 6, live: keyState.homeEndScroll, fullScreen: true},
	End:      binding{Binding: named("end"), fullScreen: true},
	CtrlHome: binding{Binding: helped("ctrl+home/end", "top/end", "ctrl+home"), long: "the same while the composer holds text (home/end move in its line)", rank: 6, live: keyState.ctrlHomeEndScroll, fullScreen: true},
	CtrlEnd:  binding{Binding: named("ctrl+end"), fullScreen: true},

	Expand:     binding{Binding: helped("ctrl+o", "expand", "ctrl+o"), long: "expand or fold the selected card or prompt; with none selected, the latest tool card, folded prompt or reasoning", rank: 2, live: keyState.hasDetails},
	SelectUp:   binding{Binding: helped("alt+↑/↓", "select card", "alt+up", "ctrl+up"), long: "select a tool card or a folded prompt (also ctrl+↑/↓); ctrl+o expands it, typing or esc leaves it", rank: 4, live: keyState.hasSelectable},
	SelectDown: binding{Binding: named("alt+down", "ctrl+down")},
	Newline:    binding{Binding: helped("ctrl+j", "newline", "ctrl+j", "alt+enter"), long: "a new line in the message (also alt+enter)", rank: 3, live: keyState.typing},
	Regenerate: binding{Binding: helped("ctrl+r", "regenerate", "ctrl+r"), long: "ask for the last reply again", rank: 4, live: keyState.canRegenerate},
	Earlier:    binding{Binding: helped("up/down", "history", "up"), long: "earlier messages, in an empty composer", rank: 7, live: keyState.hasHistory},
	Later:      binding{Binding: named("down")},

	Model:          binding{Binding: helped("ctrl+p", "model", "ctrl+p"), long: "switch the model", rank: 3, live: keyState.hasModels},
	Copy:           binding{Binding: helped("ctrl+y", "copy", "ctrl+y"), long: "copy the last reply (/copy code [N] copies its last, or Nth, code block)", rank: 8, live: keyState.hasReply},
	Sessions:       binding{Binding: helped("ctrl+s", "sessions", "ctrl+s"), long: "go back to a saved conversation", rank: 8, live: keyState.canOpenSessions},
	PasteImage:     binding{Binding: helped("ctrl+v", "paste image", "ctrl+v"), long: "attach the clipboard's image (as PNG) to the next message", rank: 9, live: keyState.canPasteImage},
	Editor:         binding{Binding: helped("ctrl+g", "editor", "ctrl+g"), long: "edit the message in $EDITOR (also ctrl+x ctrl+e)", rank: 9, live: keyState.composerEnabled},
	EditorChord:    binding{Binding: named("ctrl+x")},
	EditorChordEnd: binding{Binding: named("ctrl+e")},
	Quit:           binding{Binding: helped("ctrl+c", "quit", "ctrl+c"), long: "quit, stopping the reply first (with text in the composer the first press clears it; with messages queued, it drops them)", rank: 1},
	Suspend:        binding{Binding: helped("ctrl+z", "suspend", "ctrl+z"), long: "suspend to the shell, as a job (fg brings the screen back whole); only when started from a shell with job control", rank: 9, live: keyListOnly},
	KeysHere:       binding{Binding: helped("?", "keys", "?"), long: "this list, when the composer is empty (f1 always)", rank: 1, live: keyState.composerEmpty},
	Keys:           binding{Binding: helped("f1", "keys", "f1"), long: "this list", rank: 1, live: func(m keyState) bool { return !m.composerEmpty() }},

	// While the key list is open it has the keys: these close it, and up and down scroll it
	// (pgup and pgdn a page at a time).
	CloseList: binding{Binding: named("esc", "f1", "?")},
	ListUp:    binding{Binding: named("up")},
	ListDown:  binding{Binding: named("down")},
}

// keyList is keys' bindings in field order.
var keyList = func() []*binding {
	v := reflect.ValueOf(&keys).Elem()
	out := make([]*binding, v.NumField())
	for i := range out {
		out[i] = v.Field(i).Addr().Interface().(*binding)
	}
	return out
}()

// shown reports whether b has a line of its own in the help.
func (b *binding) shown() bool { return b.Help().Key != "" }

// help lists the keys live now, for the help line, ranked (see binding); scrollable says the
// transcript is taller than its window.
func (m *Model) help(scrollable bool) []view.Key {
	now := keyState{m, scrollable}
	out := make([]view.Key, 0, 8)
	for _, b := range keyList {
		if b.shown() && (b.live == nil || b.live(now)) {
			out = append(out, view.Key{Keys: b.Help().Key, Does: b.Help().Desc, Rank: b.rank})
		}
	}
	if k, ok := m.notRunKey(); ok {
		out = append(out, k)
	}
	return out
}

// allKeys lists every key with what it does in full, for the key list and /help; inline, the
// keys that move the app's own transcript view are left out.
func (m *Model) allKeys() []view.Key {
	out := make([]view.Key, 0, len(keyList))
	for _, b := range keyList {
		if b.shown() && !(b.fullScreen && m.inline.on) {
			out = append(out, view.Key{Keys: b.Help().Key, Does: b.long, Rank: b.rank})
		}
	}
	return out
}

// keyListOnly keeps a binding that always works off the help line: the key list names it.
func keyListOnly(keyState) bool { return false }

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

// canSend: Enter sends what the composer holds (in the empty composer it sends a queue that
// waits instead: canSendQueued; on a command a stop kept from running, the help says so:
// notRunKey).
func (m *Model) canSend() bool {
	return m.composing() && !m.canSendQueued() && (m.notRun == "" || m.composerText != m.notRun)
}

func (m *Model) onRetry() bool { return m.focus() == phase.FocusRetry }

func (m *Model) composerInError() bool {
	return m.chat.State.Phase == phase.Error && m.focus() == phase.FocusComposer
}

func (m *Model) typingCompletable() bool {
	if !m.typing() {
		return false
	}
	_, _, mention := m.mentionOpen()
	return mention || isCommandWord(m.composerText)
}

func (m *Model) canRegenerate() bool {
	return m.chat.CanRegenerate() && (m.composing() || m.onRetry())
}

func (m *Model) hasHistory() bool { return m.composing() && len(m.ed.history) > 0 }

func (m *Model) hasReply() bool { return lastReply(m.chat.Entries()) != nil }

func (m *Model) hasModels() bool { return m.models != nil }

func (m *Model) askingDrop() bool { return m.dropped != nil }

func (m *Model) canPasteImage() bool {
	return m.pasteImage != nil && m.files != nil && m.composerEnabled()
}

// canOpenSessions: the session picker opens now (conversations are saved, no reply runs).
func (m *Model) canOpenSessions() bool { return m.ed.convs != nil && m.composerEnabled() }

func (m *Model) composerEmpty() bool { return m.composerText == "" }

// homeScrolls: Home and End move the transcript, not the cursor in the composer's line, because
// the composer holds no text (or takes no keys).
func (m *Model) homeScrolls() bool { return m.composerEmpty() || !m.typing() }

// canScroll: the transcript is taller than its window (or is scrolled up already).
func (k keyState) canScroll() bool { return !k.inline.on && (k.scroll.held || k.scrollable) }

func (k keyState) homeEndScroll() bool     { return k.canScroll() && k.homeScrolls() }
func (k keyState) ctrlHomeEndScroll() bool { return k.canScroll() && !k.homeScrolls() }

// hasDetails: some entry has a tool card, reasoning, or a prompt folded or with files that
// Ctrl+O expands.
func (k keyState) hasDetails() bool { return k.keyFacts() != 0 }

// hasSelectable: some entry has a tool card or a prompt (folded or with files) the card keys
// can select.
func (k keyState) hasSelectable() bool { return k.keyFacts()&(hasCards|isExpandable) != 0 }

// entryFacts are what an entry has that a key acts on.
type entryFacts uint8

const (
	hasCards entryFacts = 1 << iota
	hasReasoning
	isExpandable
)

func factsOf(e *transcript.Entry) entryFacts {
	var f entryFacts
	if len(e.Cards()) > 0 {
		f |= hasCards
	}
	if e.Reasoning() != "" {
		f |= hasReasoning
	}
	if e.Expandable() {
		f |= isExpandable
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
