package oneshot

import "github.com/phasechat/phasechat/stream/wire"

// Outcome is how a one-shot turn ended.
type Outcome string

const (
	Complete    Outcome = "complete"    // the reply finished
	Failed      Outcome = "error"       // an HTTP error, an error frame, a network failure, an empty reply
	Truncated   Outcome = "truncated"   // cut off: finish_reason length, no end of stream, or the step limit
	Stalled     Outcome = "stalled"     // the server sent nothing for the stall timeout
	Interrupted Outcome = "interrupted" // a signal stopped it; the partial reply was kept
)

// Exit codes, one per outcome; usage errors are the caller's (2).
const (
	ExitComplete    = 0
	ExitFailed      = 1
	ExitUsage       = 2
	ExitTruncated   = 3
	ExitStalled     = 4
	ExitInterrupted = 130
)

// Call is a tool call of the turn and what came of it.
type Call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Result    string `json:"result"`
	IsError   bool   `json:"is_error"`
}

// Result is the whole turn. As JSON every field is always there, empty or null when it has
// nothing to say.
type Result struct {
	Content   string      `json:"content"`
	Reasoning string      `json:"reasoning"`
	ToolCalls []Call      `json:"tool_calls"`
	Usage     *wire.Usage `json:"usage"` // nil (null): the server reported none
	// Cost is what the turn's requests cost in US dollars; nil (null) when the model's price
	// is unknown or the server reported no usage.
	Cost     *float64 `json:"cost_usd"`
	Outcome  Outcome  `json:"outcome"`
	ExitCode int      `json:"exit_code"`
	Error    string   `json:"error"`
	Session  string   `json:"session"`
}

func exitCode(o Outcome) int {
	switch o {
	case Complete:
		return ExitComplete
	case Truncated:
		return ExitTruncated
	case Stalled:
		return ExitStalled
	case Interrupted:
		return ExitInterrupted
	}
	return ExitFailed
}
