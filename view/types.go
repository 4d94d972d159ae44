package view

import (
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

// Entry is one transcript item. The model mutates entries in place (they are pointers) and bumps
// Version on every change; the Renderer caches an entry's lines by (entry pointer, width,
// Version), so a change without a Version bump is not drawn.
//
// While Streaming, Text and Reasoning may only grow by appending: the Renderer renders each
// complete markdown block once and re-wraps only the open tail per frame. Text that shrinks or
// changes below what was seen is detected (a prefix check that is O(1) while the storage is
// shared, as with phase.Text) and rendered afresh.
type Entry struct {
	Role      Role
	Text      string // user text, assistant content, notice text; untrusted (user text is sanitised too)
	Reasoning string // assistant reasoning (untrusted): dimmed and folded unless Expanded
	Cards     []Card // the tool calls of this assistant step, in order
	Mark      Mark
	Note      string // why a reply failed, or other detail shown under it (untrusted)
	Streaming bool   // Text may still grow
	Expanded  bool   // reasoning unfolded
	Version   uint64
}

// Card is one tool call of an assistant step. Every string in it is untrusted except ID.
type Card struct {
	ID, Name  string
	Status    phase.CallStatus
	ArgsBytes int           // size of the argument text so far, shown while pending
	Summary   string        // one-line summary of the decoded arguments once ready, e.g. path=README.md
	Args      string        // the argument JSON text; shown decoded and pretty-printed when Expanded
	Result    string        // the tool's output or error text
	IsError   bool          // Result is an error
	Duration  time.Duration // shown when done or error
	Asking    bool          // waits for the user's approval
	Expanded  bool          // arguments and result shown in full (capped)
	Focused   bool          // the card the expand key acts on
}

// Usage is a token count pair.
type Usage struct{ Prompt, Completion int }

// Footer is the bottom line's data. It never holds the API key.
type Footer struct {
	Endpoint   string // the endpoint URL or host; only the host is shown (never user info)
	Model      string
	Demo       bool   // the built-in demo model answers
	Wire       string // the wire format in use, for people (e.g. "Anthropic Messages"); empty: not shown
	Turn       Usage
	Session    Usage
	Accessible bool
	MCP        string // the MCP servers' state, e.g. "MCP 2/3"; "" when none are configured
	Warning    string // a problem the user must see now (the session log cannot be written); shown first
}

// Key is one live key binding for the help line, e.g. {Keys: "esc", Does: "stop"}.
type Key struct{ Keys, Does string }

// Frame is everything one screen is drawn from.
type Frame struct {
	Width, Height int
	Entries       []*Entry
	ScrollUp      int         // transcript lines scrolled up from the tail; 0 follows the tail
	State         phase.State // the status line and the controls
	Focus         phase.Focus // the control holding the cursor
	Composer      string      // the composer's rendered view, sized by the model
	// The composer's cursor relative to its top-left; ComposerCursor is false when blurred.
	ComposerCursorX, ComposerCursorY int
	ComposerCursor                   bool
	Help                             []Key
	Footer                           Footer
	// Note, when not empty, is shown on the status line instead of the phase's status: what the
	// user's last command or key did, or why it could not (NoteError). Untrusted.
	Note      string
	NoteError bool
	Timing    Timing
	Draft     bool // the composer holds text (while a reply streams: a draft kept for later)
}

// Timing is what the status line shows of time passing: how long the stream has been silent,
// and the countdown to an automatic retry.
type Timing struct {
	Waiting    time.Duration // the stream has been silent this long; 0 says nothing
	RetryIn    time.Duration // an automatic retry comes in this long; 0: none is pending
	RetryQuick bool          // that retry is the one quick retry after a failure before the first byte
}

// Screen is a rendered frame.
type Screen struct {
	Content string // exactly Height lines joined by '\n', none wider than Width
	// Where the real terminal cursor goes (the focused control), absolute in Content.
	CursorX, CursorY int
	Cursor           bool
	TranscriptHeight int // rows the transcript area has
	MaxScroll        int // the largest useful ScrollUp
}
