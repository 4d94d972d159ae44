// Package chat is the conversation engine both front ends share (the Bubble Tea TUI and the
// accessible line mode). It owns the phase state, the history sent to the model, the
// transcript entries the view draws, and the tool-using turn loop: request → tools run as each
// call is ready → results → next request, until a reply has no tool calls or the step limit.
//
// The engine does no I/O and starts no goroutines. Every method folds one input into the state
// and returns Effects — open a stream, pull its next update, run a tool, cancel, close, record
// to the session log — which the front end performs and whose outcomes come back as
// StreamMsg and ToolDoneMsg. Every stream and tool message carries the id of the request it
// belongs to; messages from a request that is no longer current are dropped.
//
// Invariants:
//   - History is always a valid request: every assistant message with tool calls is followed
//     by one tool message per call, in call order.
//   - The phase is changed only through phase.Reduce.
//   - At most one request is current; Stop, an error and a finished step each end it.
package chat
