package view

import (
	"time"

	"github.com/phasechat/phasechat/phase"
	"github.com/phasechat/phasechat/phase/transcript"
)

// Usage is a token count pair.
type Usage struct{ Prompt, Completion int }

// Footer is the bottom line's data. It never holds the API key.
type Footer struct {
	Endpoint string // the endpoint URL or host; only the host is shown (never user info)
	Model    string
	Demo     bool   // the built-in demo model answers
	Wire     string // the wire format in use, for people (e.g. "Anthropic Messages"); empty: not shown
	Turn     Usage
	Session  Usage
	// Context is the context the last request used, in tokens (0: none reported yet), and
	// Window the model's context window (0: unknown, and no percentage is shown).
	Context, Window int
	// Cost is what the conversation's requests cost in US dollars; shown when Priced.
	Cost       float64
	Priced     bool
	Accessible bool
	MCP        string // the MCP servers' state, e.g. "MCP 2/3"; "" when none are configured
	Warning    string // a problem the user must see now (the session log cannot be written); shown first
}

// Key is one key binding for the help line or the key overlay, e.g. {Keys: "esc", Does:
// "stop"}. Rank is how much the help line needs it: when the line is too narrow for every key,
// the highest ranks are left off first (ties: the later key first); the rest keep their order.
type Key struct {
	Keys, Does string
	Rank       int
}

// Frame is everything one screen is drawn from.
type Frame struct {
	Width, Height int
	Entries       []*transcript.Entry // read only
	ScrollUp      int                 // transcript lines scrolled up from the tail; 0 follows the tail
	State         phase.State         // the status line and the controls
	Focus         phase.Focus         // the control holding the cursor
	Composer      string              // the composer's rendered view, sized by the model
	// The composer's cursor relative to its top-left; ComposerCursor is false when blurred.
	ComposerCursorX, ComposerCursorY int
	ComposerCursor                   bool
	Help                             []Key
	// Keys, when not nil, is the key overlay, drawn over the transcript: the keys from the
	// first one it shows on, and what each does.
	Keys []Key
	// Welcome, when not nil, is the first screen, drawn above the transcript (which holds
	// notices at most) until the conversation starts.
	Welcome *Welcome
	// FollowKey names the key that goes back to the tail, for the scrolled-up indicator
	// ("↓ 12 more lines · End follows").
	FollowKey string
	Footer    Footer
	// Note, when not empty, is shown on the status line instead of the phase's status: what the
	// user's last command or key did, or why it could not (NoteError). Untrusted.
	Note      string
	NoteError bool
	Timing    Timing
	Draft     bool // the composer holds text (while a reply streams: a draft kept for later)
	// Attached are the chips of the files the next message will carry, shown on the
	// composer's label row.
	Attached []string
	// Queued are the messages waiting to be sent when the turn is over, oldest first, shown
	// on a row between the composer's label and the composer (queue.go). Untrusted.
	Queued []string
	// QueueWaits says the queue is held (the turn failed or was stopped) until the user sends it.
	QueueWaits bool
	// Fit makes the transcript area only as tall as its entries (at most what Height leaves
	// it): Content then has fewer than Height rows. The inline mode draws its live part so.
	Fit bool
}

// Timing is what the status line shows of time passing: how long the stream has been silent,
// the countdown to an automatic retry, and the turn's live counters.
type Timing struct {
	Waiting    time.Duration // the stream has been silent this long; 0 says nothing
	RetryIn    time.Duration // an automatic retry comes in this long; 0: none is pending
	RetryQuick bool          // that retry is the one quick retry after a failure before the first byte
	// Elapsed is how long the turn has run, as of its last whole second; 0 shows no counters.
	Elapsed time.Duration
	// Tokens is how many tokens the turn's replies have so far; Estimated marks a count that
	// includes an estimate from the bytes streamed (shown with "~").
	Tokens    int
	Estimated bool
}

// Screen is a rendered frame.
type Screen struct {
	Content string // exactly Height lines joined by '\n' (fewer with Frame.Fit), none wider than Width
	// Where the real terminal cursor goes (the focused control), absolute in Content.
	CursorX, CursorY int
	Cursor           bool
	TranscriptHeight int // rows the transcript area has
	MaxScroll        int // the largest useful ScrollUp
}
