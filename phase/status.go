package phase

import "strings"

// Status texts (docs/phases.md). The status line is a function of (phase, tool name, reason,
// stopped) only, so it can change only when one of those does — never per delta.
const (
	StatusIdle     = "Type a message and press Enter to send. Ctrl+C quits."
	StatusWriting  = "Writing a reply. Esc stops generating."
	StatusComplete = "Answer ready."
	StatusStopped  = "Stopped. The partial reply is kept."
	retryHint      = RetryHint
)

// RetryHint ends the error phase's status: the keys that retry. A front end that reads no keys
// (input from a pipe) says what it does instead.
const RetryHint = "Retry is available: Enter retries, Tab goes to the composer."

// RetryHintShort is RetryHint for a status line too narrow for it: the one key that retries.
const RetryHintShort = "Enter retries."

// ComposerHint ends the error phase's status instead of RetryHint while the composer holds
// the focus (Retry cannot help until the user changes something, or they pressed Tab).
const ComposerHint = "Enter sends a new message, Shift+Tab goes to Retry."

// ComposerHintShort is ComposerHint for a status line too narrow for it.
const ComposerHintShort = "Shift+Tab: Retry."

// StatusShort is Status with the error phase's key hint in its short form (RetryHintShort);
// in every other phase it is Status.
func StatusShort(s State) string {
	full := Status(s)
	if s.Phase != Error {
		return full
	}
	return strings.TrimSuffix(full, retryHint) + RetryHintShort
}

// ErrorHint is the key hint that ends the error phase's status while focus holds the cursor.
func ErrorHint(focus Focus) string {
	if focus == FocusComposer {
		return ComposerHint
	}
	return RetryHint
}

// StatusFocused is Status for a screen where focus holds the cursor: in the error phase, the
// key hint is ErrorHint(focus).
func StatusFocused(s State, focus Focus) string {
	if s.Phase != Error {
		return Status(s)
	}
	return strings.TrimSuffix(Status(s), retryHint) + ErrorHint(focus)
}

// StatusShortFocused is StatusShort for a screen where focus holds the cursor (see
// StatusFocused).
func StatusShortFocused(s State, focus Focus) string {
	if s.Phase != Error || focus != FocusComposer {
		return StatusShort(s)
	}
	return strings.TrimSuffix(Status(s), retryHint) + ComposerHintShort
}

// spokenPunctuation keeps JSON punctuation out of the status line, which a screen reader speaks
// (docs/architecture.md, Accessibility): provider messages often quote names or mention [DONE]. The transcript keeps
// the message verbatim.
var spokenPunctuation = strings.NewReplacer(`"`, "'", "[", "", "]", "", "{", "(", "}", ")")

// ToolName is how a tool's name is written everywhere it is shown or announced: the status
// line, the tool card, the line mode's tool lines. It holds no JSON punctuation (the status
// line's rule), so every rendering of one name agrees; a nameless call is "a tool". Untrusted:
// sanitise the result before the screen.
func ToolName(name string) string {
	if tool := strings.TrimSpace(spokenPunctuation.Replace(name)); tool != "" {
		return tool
	}
	return "a tool"
}

// Status is the status line for s. It never holds JSON punctuation ({ } [ ] ").
func Status(s State) string {
	switch s.Phase {
	case StreamingText:
		return StatusWriting
	case StreamingTool:
		tool := ToolName(s.Tool)
		if s.Ask != "" {
			ask := strings.TrimSpace(spokenPunctuation.Replace(s.Ask))
			return "Allow " + tool + " with " + ask + "? y runs it, n declines, A allows " + tool + " for this session. Esc stops."
		}
		return "Working on " + tool + ". Esc stops generating."
	case Error:
		reason := strings.TrimSpace(spokenPunctuation.Replace(s.Reason))
		if reason == "" {
			reason = "The request failed"
		}
		if !strings.HasSuffix(reason, "!") && !strings.HasSuffix(reason, "?") && !strings.HasSuffix(reason, "…") {
			reason = strings.TrimRight(reason, ".") + "."
		}
		return reason + " " + retryHint
	case Complete:
		if s.Stopped {
			return StatusStopped
		}
		if reason := strings.TrimSpace(spokenPunctuation.Replace(s.Reason)); reason != "" {
			return reason
		}
		return StatusComplete
	default:
		return StatusIdle
	}
}

// Focus names the control that holds the real cursor.
type Focus uint8

const (
	FocusComposer Focus = iota
	FocusStop
	FocusRetry
)

func (f Focus) String() string {
	switch f {
	case FocusStop:
		return "stop"
	case FocusRetry:
		return "retry"
	default:
		return "composer"
	}
}

// Controls is what the screen offers in a phase (docs/phases.md).
type Controls struct {
	Composer bool // the composer accepts typing and Enter
	Stop     bool // Esc stops; the Stop control is shown
	Retry    bool // the Retry control is shown
	Focus    Focus
}

var controlTable = [...]Controls{
	Idle:          {Composer: true, Focus: FocusComposer},
	StreamingText: {Stop: true, Focus: FocusStop},
	StreamingTool: {Stop: true, Focus: FocusStop},
	Error:         {Composer: true, Retry: true, Focus: FocusRetry},
	Complete:      {Composer: true, Focus: FocusComposer},
}

// FocusFor is the control that holds the cursor in phase p: the phase's own (Controls.Focus),
// except in the error phase when toComposer is set — the user moved there from Retry (Tab), or
// there is no key to press Retry with — where it is the composer. Both front ends ask it, so
// the rule is written once.
func FocusFor(p Phase, toComposer bool) Focus {
	f := ControlsFor(p).Focus
	if f == FocusRetry && toComposer {
		return FocusComposer
	}
	return f
}

// ControlsFor returns the controls phase p shows.
func ControlsFor(p Phase) Controls {
	if int(p) < len(controlTable) {
		return controlTable[p]
	}
	return controlTable[Idle]
}
