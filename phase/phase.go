// Package phase is the pure core of phasechat: the chat phase union, the reducer that folds
// classified events into it, the status text and controls each phase shows, and the tool-call
// state machine, and where the cursor goes (FocusFor). Nothing here does I/O, starts goroutines
// or knows about Bubble Tea. Its sub-packages keep the same rule: transcript (the conversation
// as the screen shows it, with one owner), format (numbers, counts, durations, hosts) and secret
// (the one redaction rule). See docs/architecture.md.
package phase

// Phase is the one value that says what the chat is doing. The five values below are the whole
// union: every other package decides controls, status text and cursor from it alone.
type Phase uint8

const (
	Idle          Phase = iota // nothing asked yet
	StreamingText              // a request is open and the model is writing (or about to)
	StreamingTool              // the model is calling a tool, or a local tool is running
	Error                      // the last request failed; Retry is offered
	Complete                   // the turn is over (finished, or stopped by the user)
)

// Phases lists every phase in declaration order.
var Phases = []Phase{Idle, StreamingText, StreamingTool, Error, Complete}

var phaseNames = [...]string{
	Idle:          "idle",
	StreamingText: "streaming-text",
	StreamingTool: "streaming-tool",
	Error:         "error",
	Complete:      "complete",
}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase(?)"
}

// Streaming reports whether a request or tool work is in flight, i.e. whether Esc has
// something to stop.
func (p Phase) Streaming() bool { return p == StreamingText || p == StreamingTool }

// Kind classifies what happened. The stream layer produces Text, Reasoning, Tool, Error and
// Done from the wire; the chat produces Submit, ToolWork, Stop and Withdraw.
type Kind uint8

const (
	KindSubmit    Kind = iota // a request was sent: a prompt, a retry, or a turn's next step
	KindText                  // a content delta (possibly empty)
	KindReasoning             // a reasoning delta: shown apart, never part of the reply
	KindTool                  // a tool-call frame from the model
	KindToolWork              // a local tool is running
	KindAsk                   // a tool waits for the user's approval
	KindError                 // the request failed: error frame, HTTP error, stall, truncation
	KindDone                  // the whole turn is over
	KindStop                  // the user pressed Esc
	KindWithdraw              // the user took the message back before the reply's first byte
)

// Kinds lists every event kind in declaration order.
var Kinds = []Kind{KindSubmit, KindText, KindReasoning, KindTool, KindToolWork, KindAsk, KindError, KindDone, KindStop, KindWithdraw}

var kindNames = [...]string{
	KindSubmit:    "submit",
	KindText:      "text",
	KindReasoning: "reasoning",
	KindTool:      "tool",
	KindToolWork:  "tool-work",
	KindAsk:       "ask",
	KindError:     "error",
	KindDone:      "done",
	KindStop:      "stop",
	KindWithdraw:  "withdraw",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Event is one classified thing that happened. Only the field named for its Kind is read.
type Event struct {
	Kind  Kind
	Delta string // KindText, KindReasoning: the fragment, possibly empty; KindAsk: what the call will do
	Tool  string // KindTool, KindToolWork, KindAsk: the tool's name; empty keeps the one shown
	Error string // KindError: what went wrong, in words a user can act on; KindDone: why the complete reply is not whole (cut off by the server), or ""
}

// State is everything the reducer knows. Text and Reasoning belong to the current request's
// reply; Tool is the name on the status line. Ask (streaming-tool), Reason (error; complete:
// a reply cut off by the server) and Stopped (complete) qualify one phase each and are
// cleared by the next accepted event.
type State struct {
	Phase     Phase
	Text      Text
	Reasoning Text
	Tool      string
	Ask       string // the approval question's detail: what the tool will be run with
	Reason    string
	Stopped   bool
}
